import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "../../src/extensions/frontmatter.js";

describe("parseFrontmatter", () => {
	it("reads key: value pairs, quoted values and indented continuations, and returns the body after the header", () => {
		const parsed = parseFrontmatter(
			"---\nname: pdf-tools\ndescription: \"Fill: PDF forms\"\nargument-hint: '<file> [page]'\nlong: >\n  first part\n  second part\n# a comment\n---\n# Body\n\ntext\n",
		);
		expect(parsed.attributes).toEqual({
			name: "pdf-tools",
			description: "Fill: PDF forms",
			"argument-hint": "<file> [page]",
			long: "first part second part",
		});
		expect(parsed.body).toBe("# Body\n\ntext\n");
	});

	it("treats text without a header, or with an unclosed one, as all body", () => {
		expect(parseFrontmatter("just text\n")).toEqual({ attributes: {}, body: "just text\n" });
		expect(parseFrontmatter("---\nname: x\nno close")).toEqual({ attributes: {}, body: "---\nname: x\nno close" });
	});

	it("accepts CRLF line ends, a BOM and an empty header", () => {
		expect(parseFrontmatter("\uFEFF---\r\ndescription: hi\r\n---\r\nbody")).toEqual({ attributes: { description: "hi" }, body: "body" });
		expect(parseFrontmatter("---\n---\nbody")).toEqual({ attributes: {}, body: "body" });
	});
});
