import { describe, expect, it } from "vitest";
import { closestName, formatConfigProblem, reportConfigProblem, takeReportedConfigProblems } from "../../src/config/problems.js";

describe("closestName", () => {
	const actions = ["submit", "followUp", "externalEditor", "toggleToolOutput", "redraw"];

	it("finds a misspelt name: a typo, a missing or doubled letter, two swapped letters, another case", () => {
		expect(closestName("submitt", actions)).toBe("submit");
		expect(closestName("externalEdtor", actions)).toBe("externalEditor");
		expect(closestName("rderaw", actions)).toBe("redraw");
		expect(closestName("FollowUp", actions)).toBe("followUp");
	});

	it("suggests nothing when no name is close", () => {
		expect(closestName("launchRockets", actions)).toBeUndefined();
		expect(closestName("x", ["enter", "escape"])).toBeUndefined();
	});
});

describe("reportConfigProblem", () => {
	it("keeps each problem once and hands them over once", () => {
		const problem = { file: "/k.json", field: "submitt", problem: "not an action" };
		reportConfigProblem(problem);
		reportConfigProblem({ ...problem });
		expect(takeReportedConfigProblems().map(formatConfigProblem)).toEqual(["/k.json: submitt: not an action"]);
		expect(takeReportedConfigProblems()).toEqual([]);
	});
});
