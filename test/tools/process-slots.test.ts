import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentToolResult } from "../../src/agent/types.js";
import { createBashTool } from "../../src/tools/bash.js";
import { ProcessSlots } from "../../src/tools/process-slots.js";
import { textOf, useTempFolder } from "./temp-folder.js";

// 300 bash calls at once (one reply asking for 300 commands) must not fork 300 shells, and must not
// make Node warn about listeners on the shared abort signal.
describe("process slots", () => {
	const tmp = useTempFolder();
	const warnings: Error[] = [];
	const onWarning = (w: Error) => warnings.push(w);
	afterEach(() => {
		process.off("warning", onWarning);
		warnings.length = 0;
	});

	it("runs 300 parallel bash calls at most 8 at a time, the rest waiting visibly", { timeout: 120_000 }, async () => {
		process.on("warning", onWarning);
		const bash = createBashTool(tmp.path, { slots: new ProcessSlots(8) });
		const signal = new AbortController().signal;
		// Each command marks itself running, records how many are running, then unmarks itself. A marker
		// exists only while its shell is alive, so the recorded count never exceeds the real one.
		const command = `mkdir -p run && touch run/$$ && ls run | wc -l >> counts && sleep 0.05; rm run/$$`;
		const updates: AgentToolResult<unknown>[] = [];
		const results = await Promise.all(Array.from({ length: 300 }, () => bash.execute("t", { command }, signal, (u) => updates.push(u))));
		expect(results.every((r) => textOf(r) === "(no output)")).toBe(true);
		const counts = readFileSync(join(tmp.path, "counts"), "utf8").trim().split("\n").map(Number);
		expect(counts).toHaveLength(300);
		expect(Math.max(...counts)).toBeLessThanOrEqual(8);
		expect(Math.max(...counts)).toBeGreaterThan(1);
		expect(readdirSync(join(tmp.path, "run"))).toEqual([]);
		expect(updates.filter((u) => textOf(u) === "Waiting for a free slot (8 running)").length).toBeGreaterThanOrEqual(292);
		expect(warnings.map((w) => w.name)).not.toContain("MaxListenersExceededWarning");
	});

	it("gives up a waiting call on abort without ever starting it", { timeout: 20_000 }, async () => {
		const slots = new ProcessSlots(1);
		const bash = createBashTool(tmp.path, { slots });
		const controller = new AbortController();
		const first = bash.execute("a", { command: "sleep 5" }, controller.signal);
		const second = bash.execute("b", { command: "touch started" }, controller.signal);
		await new Promise((r) => setTimeout(r, 100));
		expect(slots.running).toBe(1);
		controller.abort();
		await expect(first).rejects.toThrow("Command aborted");
		await expect(second).rejects.toThrow("Command aborted");
		expect(readdirSync(tmp.path)).not.toContain("started");
		expect(slots.running).toBe(0);
	});

	it("lets waiters in, in order, as slots free up or the limit grows", async () => {
		const slots = new ProcessSlots(1);
		const order: string[] = [];
		const aborted = () => new Error("aborted");
		const a = await slots.acquire(undefined, aborted);
		const b = slots.acquire(undefined, aborted).then((release) => (order.push("b"), release));
		const c = slots.acquire(undefined, aborted).then((release) => (order.push("c"), release));
		a();
		(await b)();
		(await c)();
		expect(order).toEqual(["b", "c"]);
		const held = [await slots.acquire(undefined, aborted)];
		const d = slots.acquire(undefined, aborted);
		slots.setLimit(2);
		held.push(await d);
		expect(slots.running).toBe(2);
	});
});
