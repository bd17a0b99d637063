// `@file` attachments and their inverse: the UI shows what `expandAttachments` appended as one
// `Read big.js (400 lines)` row, so it must find exactly those blocks again in the sent text.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expandAttachments, splitAttachments } from "../../src/session/prompt-attachments.js";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rudder-attach-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("splitAttachments", () => {
	it("finds each attached file of an expanded prompt, with its line count, and the prompt as typed", () => {
		writeFileSync(join(dir, "big.js"), Array.from({ length: 400 }, (_, i) => `const a${i} = ${i};`).join("\n"));
		writeFileSync(join(dir, "fenced.md"), "```js\nx\n```\n");
		writeFileSync(join(dir, "empty.txt"), "");
		const typed = "explain @big.js and @fenced.md, @empty.txt";
		const sent = expandAttachments(typed, dir);
		expect(sent.attached).toEqual(["big.js", "fenced.md", "empty.txt"]);
		expect(splitAttachments(sent.text)).toEqual({
			prompt: typed,
			files: [
				{ path: "big.js", lines: 400 },
				{ path: "fenced.md", lines: 3 },
				{ path: "empty.txt", lines: 0 },
			],
		});
	});

	it("leaves a typed fenced block alone unless the prompt references its path", () => {
		const typed = "look at this\n\nnotes.txt\n```\nsome text\n```";
		expect(splitAttachments(typed)).toEqual({ prompt: typed, files: [] });
		expect(splitAttachments("plain prompt")).toEqual({ prompt: "plain prompt", files: [] });
	});
});
