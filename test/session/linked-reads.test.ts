// Issue 30 item 6: a repo-shipped symlink to a file outside the workspace (a fake ~/.ssh key under a
// temp HOME) is not read or listed by grep, find or ls where `read` of the same link asks: in ask and
// plan mode they skip it and say how many they skipped; yolo (read does not ask) follows it.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../src/ai/index.js";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../src/ai/index.js";
import type { PermissionMode } from "../../src/permissions/types.js";
import type { AgentSession } from "../../src/session/agent-session.js";
import { createFixture, type Fixture } from "./session-fixture.js";

let fx: Fixture;
afterEach(async () => fx?.cleanup());

const KEY = "PRIVATE_KEY_MATERIAL_7731";
const toolResults = (session: AgentSession) => session.getState().messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
const resultText = (m: ToolResultMessage) => m.content.map((c) => (c.type === "text" ? c.text : "")).join("");

async function openIn(mode: PermissionMode) {
	fx = await createFixture();
	const home = join(fx.root, "fake-home");
	mkdirSync(join(home, ".ssh"), { recursive: true });
	writeFileSync(join(home, ".ssh", "id_ed25519"), `-----BEGIN KEY-----\n${KEY}\n`);
	mkdirSync(join(fx.cwd, "handbook"));
	writeFileSync(join(fx.cwd, "handbook", "guide.md"), "KEY handling guide\n");
	// What a hostile clone ships: a link that looks like documentation.
	symlinkSync(join(home, ".ssh", "id_ed25519"), join(fx.cwd, "handbook", "notes.md"));
	// A link that stays inside is followed as before.
	symlinkSync(join(fx.cwd, "handbook", "guide.md"), join(fx.cwd, "guide-link.md"));
	return fx.open({ tools: ["read", "grep", "find", "ls"], approvals: "print", permissionMode: mode, sandboxFactory: () => undefined });
}

const calls = () =>
	fauxAssistantMessage([
		fauxToolCall("grep", { pattern: "KEY" }),
		fauxToolCall("find", { pattern: "*.md" }),
		fauxToolCall("ls", { path: "handbook" }),
		fauxToolCall("read", { path: "handbook/notes.md" }),
	]);

describe("grep, find and ls follow the gate through symlinks", { timeout: 30_000 }, () => {
	for (const mode of ["ask", "plan"] as const) {
		it(`${mode} mode: the link out is skipped with a count; read of it is refused as it asks`, async () => {
			const session = await openIn(mode);
			fx.faux.setResponses([calls(), fauxAssistantMessage([fauxText("ok")])]);
			await session.prompt("look around");
			const [grep, find, ls, read] = toolResults(session);
			for (const result of toolResults(session)) expect(resultText(result)).not.toContain(KEY);
			expect(resultText(grep)).toBe(
				"guide-link.md:1: KEY handling guide\nhandbook/guide.md:1: KEY handling guide\n\n[1 linked entry outside the workspace skipped (read one by its path to be asked)]",
			);
			expect(resultText(find)).toBe(
				"guide-link.md\nhandbook/guide.md\n\n[1 linked entry outside the workspace skipped (read one by its path to be asked)]",
			);
			expect(resultText(ls)).toBe("guide.md\n\n[1 linked entry outside the workspace skipped (read one by its path to be asked)]");
			expect(read.isError).toBe(true);
			expect(resultText(read)).toContain("outside the workspace");
		});
	}

	it("yolo mode (read does not ask): the link is followed", async () => {
		const session = await openIn("yolo");
		fx.faux.setResponses([calls(), fauxAssistantMessage([fauxText("ok")])]);
		await session.prompt("look around");
		const [grep, find, ls] = toolResults(session);
		expect(resultText(grep)).toContain(`handbook/notes.md:2: ${KEY}`);
		expect(resultText(find)).toContain("handbook/notes.md");
		expect(resultText(ls)).toBe("guide.md\nnotes.md");
	});
});
