// What an MCP server offers besides tools, in a session (the SDK's McpServer over stdio): its prompts
// as slash commands, its resources attached with `@server:uri`, list_changed refreshing tools, prompts
// and resources, and progress notifications on the running call. The server's text is untrusted:
// descriptions and resource text arrive with their controls made visible.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../../src/ai/index.js";
import type { AgentSession } from "../../../src/session/agent-session.js";
import { putFile } from "../../helpers/put-file.js";
import { createFixture, type Fixture, userTexts } from "../../session/session-fixture.js";
import { eventually, featureServer, writeGlobalSettings } from "./mcp-fixture.js";

let fx: Fixture;
afterEach(async () => {
	await fx?.cleanup();
});

async function readySession(): Promise<AgentSession> {
	fx = await createFixture();
	writeGlobalSettings(fx, { permissions: { allow: ["mcp__*"] }, mcpServers: { features: featureServer() } });
	const session = await fx.open();
	session.startMcpServers();
	await eventually(() => session.getState().mcpServers?.[0]?.status === "ready");
	return session;
}

describe("MCP prompts, resources, list changes and progress", () => {
	it("a prompt is a slash command with its arguments; its messages are the user's prompt", async () => {
		const session = await readySession();
		const review = session.commands().find((c) => c.name === "mcp__features__review");
		expect(review).toMatchObject({ args: "<file> [focus]", description: "Review a file ^[[2Jcarefully (MCP server features)" });
		fx.faux.setResponses([fauxAssistantMessage([fauxText("reviewed")])]);
		await session.submit("/mcp__features__review src/a.ts memory safety");
		await session.waitForIdle();
		expect(userTexts(fx.faux, 0)).toEqual(["Please review src/a.ts for memory safety."]);
		// A missing argument is the command's error, and nothing is sent.
		await session.submit("/mcp__features__review");
		expect(fx.notices().at(-1)).toBe("/mcp__features__review needs file (usage: /mcp__features__review <file> [focus])");
		expect(fx.faux.calls).toHaveLength(1);
	});

	it("a prompt whose name cannot be a command is not one, and /mcp shows its name, made visible, with the reason", async () => {
		const session = await readySession();
		expect(
			session
				.commands()
				.filter((c) => c.name.startsWith("mcp__features__"))
				.map((c) => c.name),
		).toEqual(["mcp__features__review"]);
		await session.submit("/mcp");
		const shown = fx.notices().at(-1) ?? "";
		expect(shown).toContain(
			'\n    prompts not usable (name not allowed: a command name takes letters, digits, _ and - only, up to 64): "deploy now^[[2J!"',
		);
		expect(shown).not.toContain("\x1b");
	});

	it("a markdown command of the same name wins over a server's prompt", async () => {
		fx = await createFixture();
		writeGlobalSettings(fx, { permissions: { allow: ["mcp__*"] }, mcpServers: { features: featureServer() } });
		putFile(join(fx.env.RUDDER_HOME, "commands", "mcp__features__review.md"), "My own review of $ARGUMENTS");
		const session = await fx.open();
		session.startMcpServers();
		await eventually(() => session.getState().mcpServers?.[0]?.status === "ready");
		expect(session.commands().filter((c) => c.name === "mcp__features__review")).toHaveLength(1);
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		await session.submit("/mcp__features__review a.ts");
		await session.waitForIdle();
		expect(userTexts(fx.faux, 0)).toEqual(["My own review of a.ts"]);
	});

	it("@server:uri attaches the resource's text, marked as the server's, controls made visible", async () => {
		const session = await readySession();
		expect(session.getState().mcpServers?.[0]?.resources).toEqual([{ uri: "memo://notes", name: "notes" }]);
		await session.submit("/mcp");
		expect(fx.notices().at(-1)).toContain("    prompts: /mcp__features__review\n    resources: @features:memo://notes");
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		await session.submit("summarize @features:memo://notes please");
		await session.waitForIdle();
		const [sent] = userTexts(fx.faux, 0);
		expect(sent).toContain("summarize @features:memo://notes please\n\nfeatures:memo://notes\n```\n");
		expect(sent).toContain("[MCP resource from the server \"features\": the server's text, not the user's]");
		expect(sent).toContain("The deploy key rotates on Fridays.^[]52;c;AAAA^G");
		expect(sent).not.toContain("\x1b");
		// An unknown resource of a known server is a warning; the prompt still goes.
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		await session.submit("and @features:memo://missing");
		await session.waitForIdle();
		expect(fx.notices().some((n) => n.startsWith("@features:memo://missing not attached:"))).toBe(true);
	});

	it("list_changed notifications refresh the tools, prompts and resources", async () => {
		const session = await readySession();
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("mcp__features__add_prompt", {})]), fauxAssistantMessage([fauxText("ok")])]);
		await session.prompt("grow");
		await eventually(() => {
			const info = session.getState().mcpServers?.[0];
			return (
				info?.tools.includes("mcp__features__added") === true &&
				info.prompts.includes("mcp__features__summarize") &&
				info.resources.some((r) => r.uri === "memo://later")
			);
		});
		expect(session.commands().some((c) => c.name === "mcp__features__summarize")).toBe(true);
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		await session.submit("/mcp__features__summarize");
		await session.waitForIdle();
		expect(userTexts(fx.faux, 2).at(-1)).toBe("Summarize the notes.");
	});

	it("progress notifications update the running call", async () => {
		const session = await readySession();
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("mcp__features__slow", {})]), fauxAssistantMessage([fauxText("ok")])]);
		await session.prompt("go slow");
		const updates = fx.events.flatMap((e) =>
			e.type === "tool_execution_update" ? [(e.partialResult.content[0] as { text: string }).text] : [],
		);
		expect(updates).toEqual(["1/3 step 1\x1b[31m", "2/3 step 2\x1b[31m", "3/3 step 3\x1b[31m"]);
	});
});
