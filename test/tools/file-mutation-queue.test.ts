import { describe, expect, it } from "vitest";
import { withFileMutationQueue } from "../../src/tools/file-mutation-queue.js";

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("withFileMutationQueue", () => {
	it("runs mutations of one file one at a time, in call order, past failures", async () => {
		const log: string[] = [];
		let running = 0;
		let maxRunning = 0;
		const job =
			(name: string, fail = false) =>
			async () => {
				running++;
				maxRunning = Math.max(maxRunning, running);
				log.push(`start ${name}`);
				await tick();
				log.push(`end ${name}`);
				running--;
				if (fail) throw new Error(name);
				return name;
			};
		const results = await Promise.allSettled([
			withFileMutationQueue("/tmp/q/a.txt", job("1")),
			withFileMutationQueue("/tmp/q/./a.txt", job("2", true)),
			withFileMutationQueue("/tmp/q/a.txt", job("3")),
		]);
		expect(maxRunning).toBe(1);
		expect(log).toEqual(["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"]);
		expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
	});

	it("lets different files proceed in parallel", async () => {
		let running = 0;
		let maxRunning = 0;
		const job = async () => {
			running++;
			maxRunning = Math.max(maxRunning, running);
			await tick();
			running--;
		};
		await Promise.all([withFileMutationQueue("/tmp/q/x", job), withFileMutationQueue("/tmp/q/y", job)]);
		expect(maxRunning).toBe(2);
	});
});
