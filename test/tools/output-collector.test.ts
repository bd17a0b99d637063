import { readFile, rm } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { OutputCollector } from "../../src/tools/output-collector.js";

describe("OutputCollector", () => {
	it("keeps a bounded tail in memory while the temp file gets everything", async () => {
		const collector = new OutputCollector(100, 1024);
		const lines: string[] = [];
		// Chunks that split lines (and a multi-byte character) at arbitrary points.
		let pending = "";
		for (let i = 1; i <= 20_000; i++) {
			const line = `line ${i} é`;
			lines.push(line);
			pending += `${line}\n`;
			if (pending.length > 37) {
				const bytes = Buffer.from(pending);
				collector.append(bytes.subarray(0, 20));
				collector.append(bytes.subarray(20));
				pending = "";
			}
		}
		collector.append(Buffer.from(pending));
		const snap = collector.snapshot();
		expect(snap.text.split("\n")).toEqual(lines.slice(-snap.truncation.outputLines));
		expect(snap.truncation).toMatchObject({ truncated: true, totalLines: 20_000 });
		expect(Buffer.byteLength(snap.text)).toBeLessThanOrEqual(1024);
		// Memory holds about twice the byte cap, not the whole output.
		expect((collector as unknown as { keptBytes: number }).keptBytes).toBeLessThan(3 * 1024);
		await collector.close();
		const path = snap.fullOutputPath as string;
		expect(await readFile(path, "utf8")).toBe(`${lines.join("\n")}\n`);
		await rm(path);
	});

	it("opens no temp file for output under the caps", async () => {
		const collector = new OutputCollector(100, 1024);
		collector.append(Buffer.from("a\nb\n"));
		const snap = collector.snapshot();
		expect(snap).toMatchObject({ text: "a\nb", fullOutputPath: undefined });
		expect(snap.truncation).toMatchObject({ truncated: false, totalLines: 2 });
		await collector.close();
	});
});
