// MCP tools are ordinary AgentTools, so the permission gate applies to them as to built-in tools: the
// default mode asks, and rules by tool name (`mcp__fx__*`) allow or deny without asking.
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../../src/ai/index.js";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../../src/ai/index.js";
import type { AgentSession } from "../../../src/session/agent-session.js";
import { createFixture, type Fixture } from "../../session/session-fixture.js";
import { stdioServer, writeGlobalSettings } from "./mcp-fixture.js";

let fx: Fixture;
afterEach(async () => fx?.cleanup());

const toolResults = (session: AgentSession) => session.getState().messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
const text = (m: ToolResultMessage) => m.content.map((c) => (c.type === "text" ? c.text : "")).join("");

describe("MCP tools under the permission gate", { timeout: 30_000 }, () => {
	it("asks in the default mode; a denial reaches the model, an approval runs the call on the server", async () => {
		fx = await createFixture();
		writeGlobalSettings(fx, { mcpServers: { fx: stdioServer() } });
		const session = await fx.open({ approvals: "prompt" });
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("mcp__fx__echo", { text: "one" }, { id: "c1" })]),
			fauxAssistantMessage([fauxToolCall("mcp__fx__echo", { text: "two" }, { id: "c2" })]),
			fauxAssistantMessage([fauxText("done")]),
		]);
		const run = session.prompt("echo twice");
		const first = await fx.waitForEvent("approval_request");
		expect(first).toMatchObject({ toolCallId: "c1", tool: "mcp__fx__echo", kind: "call" });
		session.respondToApproval(first.id, { decision: "deny", reason: "not that one" });
		const second = await fx.waitForEvent("approval_request", (e) => e.id !== first.id);
		expect(second).toMatchObject({ toolCallId: "c2", tool: "mcp__fx__echo" });
		session.respondToApproval(second.id, { decision: "allow" });
		await run;
		const [denied, allowed] = toolResults(session);
		expect(denied.isError).toBe(true);
		expect(text(denied)).toContain("not that one");
		expect(allowed).toMatchObject({ isError: false });
		expect(text(allowed)).toBe("echo: two");
	});

	it("a rule on the tool name allows or denies without asking", async () => {
		fx = await createFixture();
		writeGlobalSettings(fx, { permissions: { allow: ["mcp__fx__*"], deny: ["mcp__fx__secret"] }, mcpServers: { fx: stdioServer() } });
		const session = await fx.open({ approvals: "prompt" });
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("mcp__fx__echo", { text: "ok" }), fauxToolCall("mcp__fx__secret", {})]),
			fauxAssistantMessage([fauxText("done")]),
		]);
		await session.prompt("go");
		expect(fx.events.filter((e) => e.type === "approval_request")).toEqual([]);
		const [echo, secret] = toolResults(session);
		expect(text(echo)).toBe("echo: ok");
		expect(secret.isError).toBe(true);
	});
});
