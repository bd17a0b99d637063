import { render } from "ink-testing-library";
import React from "react";
import { afterEach, describe, expect, it } from "vitest";
import { highlightCode, loadHighlighter } from "../../../components/markdown/highlight.js";
import { MarkdownBlock } from "../../../components/markdown/MarkdownBlock.js";

const plain = (s: string | undefined) => (s ?? "").replace(/\x1b\[[0-9;]*m/g, "");
let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

function show(source: string): string {
	const app = render(<MarkdownBlock source={source} />);
	unmount = app.unmount;
	return plain(app.lastFrame());
}

describe("MarkdownBlock", () => {
	it("renders headings without their hashes, emphasis without markers, and links with their URL", () => {
		expect(show("## Setup")).toBe("Setup");
		expect(show("Some **bold**, *em* and `code`.")).toBe("Some bold, em and code.");
		expect(show("See [the docs](https://example.com/docs).")).toBe("See the docs (https://example.com/docs).");
	});

	it("renders bullet and numbered lists", () => {
		expect(show("- one\n- two")).toBe("• one\n• two");
		expect(show("3. c\n4. d")).toBe("3. c\n4. d");
	});

	it("renders a fenced code block indented, with its language label", () => {
		expect(show("```ts\nconst a = 1;\n```")).toBe("  ts\n  const a = 1;");
	});

	it("colours code once highlight.js has loaded", async () => {
		expect(highlightCode("x", "nosuchlang")).toBeUndefined();
		await loadHighlighter();
		const segments = highlightCode('const a = "s"; // c', "ts")!;
		expect(segments.map((s) => s.text).join("")).toBe('const a = "s"; // c');
		expect(segments.find((s) => s.text === "const")?.color).toBe("magenta");
		expect(segments.find((s) => s.text === '"s"')?.color).toBe("green");
		expect(segments.find((s) => s.text === "// c")?.color).toBe("gray");
		expect(highlightCode("a &lt; b", "ts")!.map((s) => s.text).join("")).toBe("a &lt; b");
	});
});
