// collectGarbage runs a real full collection and leaves V8's flags as they were.
import { runInNewContext, Script } from "node:vm";
import { describe, expect, it } from "vitest";
import { collectGarbage } from "../../../src/tui/warm-up/collect-garbage.js";

describe("collectGarbage", () => {
	it("collects an object nothing refers to any more", async () => {
		let ref: WeakRef<object> | undefined;
		(() => {
			ref = new WeakRef({ payload: new Array(10_000).fill("x") });
		})();
		const nextJob = () => new Promise((r) => setTimeout(r, 0));
		// A WeakRef's target is kept until the end of the job that made or dereferenced it.
		await nextJob();
		expect(ref?.deref()).toBeDefined();
		await nextJob();
		expect(collectGarbage()).toBe(true);
		expect(ref?.deref()).toBeUndefined();
	});

	it("leaves no gc() in contexts made after it, and the code cache valid", () => {
		const source = "(function () { return 6 * 7; })()";
		const before = new Script(source, { filename: "cached.js" });
		before.runInThisContext();
		const data = before.createCachedData();
		collectGarbage();
		expect(runInNewContext("typeof gc")).toBe("undefined");
		expect(new Script(source, { filename: "cached.js", cachedData: data }).cachedDataRejected).toBe(false);
	});
});
