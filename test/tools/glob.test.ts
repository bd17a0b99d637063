import { describe, expect, it } from "vitest";
import { compileGlob } from "../../src/tools/glob.js";

describe("compileGlob", () => {
	it("matches the file name at any depth when the pattern has no slash", () => {
		const m = compileGlob("*.ts");
		expect(["a.ts", "src/a.ts", "src/deep/b.ts"].every(m)).toBe(true);
		expect(m("a.tsx")).toBe(false);
		expect(m("src.ts/readme.md")).toBe(false);
	});
	it("matches the relative path when the pattern has a slash", () => {
		const m = compileGlob("src/**/*.test.ts");
		expect(m("src/a.test.ts")).toBe(true);
		expect(m("src/x/y/a.test.ts")).toBe(true);
		expect(m("test/a.test.ts")).toBe(false);
		expect(compileGlob("./src/*.ts")("src/a.ts")).toBe(true);
		expect(compileGlob("src/*.ts")("src/x/a.ts")).toBe(false);
	});
	it("supports ?, character classes and braces, and escapes regex characters", () => {
		expect(compileGlob("file?.{js,ts}")("file1.ts")).toBe(true);
		expect(compileGlob("file?.{js,ts}")("file1.md")).toBe(false);
		expect(compileGlob("[ab].txt")("b.txt")).toBe(true);
		expect(compileGlob("[!ab].txt")("b.txt")).toBe(false);
		expect(compileGlob("a+b(1).txt")("a+b(1).txt")).toBe(true);
		expect(compileGlob("a.txt")("abtxt")).toBe(false);
	});
});
