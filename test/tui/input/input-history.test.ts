import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processSecrets } from "../../../src/safety/secrets.js";
import { openInputHistory } from "../../../src/tui/input/input-history.js";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rudder-history-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const linesOf = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean);

describe("input history on disk", () => {
	it("a file over the cap is cut to the newest entries when opened", () => {
		const file = join(dir, "h.jsonl");
		writeFileSync(file, Array.from({ length: 2000 }, (_, i) => `${JSON.stringify(`entry ${i}`)}\n`).join(""));
		const history = openInputHistory(file, 500);
		expect(history.entries).toHaveLength(500);
		expect(history.entries[0]).toBe("entry 1500");
		expect(linesOf(file)).toHaveLength(500);
		expect(statSync(file).mode & 0o777).toBe(0o600);
	});

	it("never grows past twice the cap however much is added, and reopens to the newest entries", () => {
		const file = join(dir, "h.jsonl");
		const history = openInputHistory(file, 50);
		for (let i = 0; i < 400; i++) {
			history.add(`typed ${i}`);
			expect(linesOf(file).length).toBeLessThanOrEqual(100);
		}
		const again = openInputHistory(file, 50);
		expect(again.entries).toHaveLength(50);
		expect(again.entries.at(-1)).toBe("typed 399");
		expect(again.entries[0]).toBe("typed 350");
	});
});

describe("input history and secrets", () => {
	it("never keeps /login (so Up cannot bring a key back), redacts known secrets, writes 0600", () => {
		const file = join(dir, "input-history.jsonl");
		processSecrets.add("sk-history-secret-12345");
		const history = openInputHistory(file);
		history.add("/login groq gsk-typed-key-0123456789");
		history.add("use sk-history-secret-12345 please");
		history.add("hello");
		expect(history.entries).toEqual(["use [redacted] please", "hello"]);
		expect(readFileSync(file, "utf8")).toBe('"use [redacted] please"\n"hello"\n');
		expect(statSync(file).mode & 0o777).toBe(0o600);
	});

	it("drops /login lines an older version saved", () => {
		const file = join(dir, "input-history.jsonl");
		writeFileSync(file, '"/login openai sk-old-0123456789"\n"kept"\n');
		expect(openInputHistory(file).entries).toEqual(["kept"]);
	});
});
