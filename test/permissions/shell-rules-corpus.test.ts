// The parser corpus (test/fixtures/shell-rules/corpus.json): hostile and benign command lines, each with
// the rules in force and the verdict the policy must reach in ask mode. Every bypass issue 30 names is a
// case; on the text splitter these rules were matched with before, 140 of the 267 cases (all 8 from
// the issue) got another verdict: 75 that must ask and 10 that must be denied were allowed.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decide } from "../../src/permissions/policy.js";
import { parseRule } from "../../src/permissions/rules.js";
import { loadShellParser } from "../../src/permissions/shell-parse.js";
import { createWorkspace } from "../../src/permissions/workspace.js";

interface Case {
	allow: string[];
	deny: string[];
	command: string;
	expect: "allow" | "ask" | "deny";
	note?: string;
}

const corpus = JSON.parse(readFileSync(join(import.meta.dirname, "..", "fixtures", "shell-rules", "corpus.json"), "utf8")) as {
	cases: Case[];
};
const ws = mkdtempSync(join(tmpdir(), "rudder-corpus-"));

beforeAll(async () => {
	await loadShellParser();
});
afterAll(() => rmSync(ws, { recursive: true, force: true }));

describe("bash rules on a real parse: the corpus", () => {
	it("holds at least 150 cases, every verdict among them", () => {
		expect(corpus.cases.length).toBeGreaterThanOrEqual(150);
		expect(new Set(corpus.cases.map((c) => c.expect))).toEqual(new Set(["allow", "ask", "deny"]));
	});

	it.each(corpus.cases.map((c, i) => [i, JSON.stringify(c.command).slice(0, 60), c] as const))("#%i %s", (_i, _name, c) => {
		const policy = {
			mode: "ask" as const,
			allow: c.allow.map((t) => parseRule(t, "corpus")),
			deny: c.deny.map((t) => parseRule(t, "corpus")),
			workspace: createWorkspace(ws),
		};
		const decision = decide({ tool: "bash", args: { command: c.command } }, policy);
		expect({ command: c.command, verdict: decision.kind }).toEqual({ command: c.command, verdict: c.expect });
	});
});
