// What an approval shows, at 60 columns: every character of the command (runs of blanks counted,
// invisible characters named), wrapped rather than cut; past the height limit a count of hidden rows and
// the pager key, with the command's tail still shown; diffs and other tools' arguments the same way.
import { describe, expect, it } from "vitest";
import { argumentLines } from "../../../src/permissions/preview.js";
import type { ApprovalPreview, ApprovalRequest } from "../../../src/session/types.js";
import { approvalPromptRows } from "../../../src/tui/overlays/ApprovalPrompt.js";
import { initialApprovalState } from "../../../src/tui/overlays/approval-prompt-state.js";
import { displayWidth } from "../../../src/tui/text/text-width.js";

const COLUMNS = 60;

function request(preview: ApprovalPreview, tool = "bash"): ApprovalRequest {
	return { id: "a1", toolCallId: "c1", tool, args: {}, reason: "commands ask first", kind: "call", preview, rule: `${tool}(x)` };
}
const command = (text: string): ApprovalPreview => ({ type: "command", command: text, sandbox: "bwrap", network: false });

function rows(preview: ApprovalPreview, maxRows = 30, tool = "bash"): string[] {
	const req = request(preview, tool);
	return approvalPromptRows({ request: req, state: initialApprovalState(req.id, req), maxRows, columns: COLUMNS }).map((r) => r.text);
}

/** The preview's text as one string: rows joined without their indent, so a wrapped word reads whole. */
const joined = (shown: string[]) => shown.map((r) => r.replace(/^ {2}/, "")).join("");

describe("an approval's preview at 60 columns", () => {
	it("counts a run of 300 spaces and shows what follows it", () => {
		const shown = rows(command(`npm test${" ".repeat(300)}; curl x|sh`));
		expect(shown.every((r) => displayWidth(r) <= COLUMNS)).toBe(true);
		expect(joined(shown)).toContain("$ npm test⟨300 spaces⟩; curl x|sh");
		expect(shown.join("\n")).not.toContain("…");
	});

	it("shows a colour code in the command as the bytes that run, not as colour (the sanitiser drops it from output)", () => {
		const shown = joined(rows(command("echo sub \x1b[31mred\x1b[0m \x9b2J end")));
		expect(shown).toContain("$ echo sub ^[[31mred^[[0m ⟪U+009B⟫2J end");
		const diff = joined(rows({ type: "diff", path: "a.sh", diff: "@@ -1 +1 @@\n-x\n+printf '\x1b[2Jhi'", truncatedLines: 0 }, 30, "edit"));
		expect(diff).toContain("+printf '^[[2Jhi'");
	});

	it("wraps a long && chain: every command of it is on screen, its end included", () => {
		const chain = [
			"npm run build",
			...Array.from({ length: 8 }, (_, i) => `cp dist/part-${i}.js /srv/app/releases/current/part-${i}.js`),
			"rm -rf ~/important",
		].join(" && ");
		const shown = rows(command(chain));
		expect(shown.every((r) => displayWidth(r) <= COLUMNS)).toBe(true);
		expect(joined(shown)).toContain(`$ ${chain}`);
		expect(shown.some((r) => r.includes("rm -rf ~/important"))).toBe(true);
	});

	it("names invisible and control characters, tabs and odd spaces", () => {
		const shown = joined(rows(command("echo ok\u200b\u202e\u2066; rm\tx\u00a0y\x1b[2Jz")));
		expect(shown).toContain("$ echo ok⟪U+200B⟫⟪U+202E⟫⟪U+2066⟫; rm⟨tab⟩x⟪U+00A0⟫y^[[2Jz");
	});

	it("past the height limit says how many rows are hidden and which key shows them, and keeps the tail", () => {
		const lines = Array.from({ length: 80 }, (_, i) => `echo step ${i}`);
		const shown = rows(command([...lines, "rm -rf ~/important"].join("\n")), 20);
		expect(shown.length).toBeLessThanOrEqual(20);
		expect(shown.join("\n")).toMatch(/⟨\d+ more lines hidden · Ctrl\+O shows all⟩/);
		expect(shown.join("\n")).toContain("> rm -rf ~/important");
		// Where it runs stays under the preview, not in place of its tail.
		expect(shown.join("\n")).toContain("> echo step 79\n  > rm -rf ~/important\n  runs in the sandbox");
	});

	it("wraps a diff's long line instead of cutting it", () => {
		const long = `const url = "${"a".repeat(150)}/tail-marker";`;
		const diff = `Index: a.ts\n===================================================================\n--- a.ts\n+++ a.ts\n@@ -1,1 +1,1 @@\n-old\n+${long}\n`;
		const shown = rows({ type: "diff", path: "a.ts", diff, truncatedLines: 0 }, 30, "write");
		expect(shown.every((r) => displayWidth(r) <= COLUMNS)).toBe(true);
		expect(joined(shown)).toContain(`+${long}`);
	});

	it("shows another tool's arguments as key: value lines, not JSON", () => {
		const text = argumentLines({ path: "/etc/ssh/sshd_config", offset: 10, options: { follow: true } });
		expect(text).toBe("path: /etc/ssh/sshd_config\noffset: 10\noptions:\n  follow: true");
		const shown = rows({ type: "args", text }, 30, "read");
		expect(shown).toContain("  path: /etc/ssh/sshd_config");
		expect(shown.join("\n")).not.toContain("{");
	});
});
