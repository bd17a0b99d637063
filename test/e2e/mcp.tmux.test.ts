// MCP in the app, in a real terminal (tmux). A server's form: the model calls a tool whose server asks
// for input (elicitation/create); the form shows the defaults, the server's escape sequences as text,
// keys edit a field, Enter sends the answer back to the server, whose result the model reads.
// RUDDER_SAVE_CAPTURE=1 writes the form's screen to test/e2e/capture-elicitation.txt. A server's
// progress notifications show on the running call's row.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { featureServer } from "../extensions/mcp/mcp-fixture.js";
import { textBody, toolCallBody } from "../helpers/openai-chunks.js";
import { putFile } from "../helpers/put-file.js";
import { tmuxAppPerTest } from "../helpers/tmux-app.js";

const LONG = 90_000;
const term = tmuxAppPerTest("rudder-e2e-mcp");
const { capture, sendText, sendKey, waitForScreen, start, exitCode } = term;

/** The app with the feature server configured, after a prompt whose reply calls `tool` and then says `reply`. */
async function askModelToCall(
	server: typeof term.server,
	home: typeof term.home,
	tool: string,
	reply: string,
	entry: Record<string, unknown>,
): Promise<string> {
	putFile(join(home.rudderHome, "settings.json"), JSON.stringify({ permissions: { allow: ["mcp__*"] }, mcpServers: { features: entry } }));
	const exitFile = await start(["--model", "mock/mock-1"]);
	server.enqueue({ kind: "sse", chunks: [toolCallBody(tool, {}, "call_1")] }, { kind: "sse", chunks: [textBody(reply)] });
	sendText(`please call ${tool}`);
	sendKey("Enter");
	return exitFile;
}

describe("an MCP server's form in a real terminal (tmux)", () => {
	it("shows the defaults, takes edits, and sends the accepted values to the server", { timeout: LONG }, async () => {
		const { server, home } = await term.setUp();
		const exitFile = await askModelToCall(server, home, "mcp__features__ask_form", "Configured.", featureServer());
		const form = await waitForScreen((s) => s.includes("asks for input") && s.includes("Esc declines"), "the form");
		if (process.env.RUDDER_SAVE_CAPTURE) writeFileSync(join(import.meta.dirname, "capture-elicitation.txt"), form.replace(/\n+$/, "\n"));
		expect(form).toContain("MCP server features asks for input:");
		expect(form).toContain("Configure the ^[]0;pwned^Gdeployment^[[2J");
		expect(form).toContain("› Name *: Ada");
		expect(form).toContain("Port *: 8080");
		expect(form).toContain("Verbose: [x] yes");
		expect(form).toContain("Colour: ‹ Green ›");
		sendKey("BSpace", "BSpace", "BSpace");
		sendText("Grace");
		await waitForScreen((s) => s.includes("Name *: Grace"), "the edited name");
		sendKey("Enter");
		await waitForScreen((s) => s.includes("Configured."), "the reply after the answer");
		expect(capture()).not.toContain("asks for input");
		const toolMessage = server.requests[1].body.messages.find((m: { role: string }) => m.role === "tool");
		expect(JSON.parse(toolMessage.content)).toEqual({
			action: "accept",
			content: { name: "Grace", port: 8080, verbose: true, color: "green" },
		});
		sendKey("C-c", "C-c");
		await exitCode(exitFile);
	});

	it("a server's progress shows on the running call's row", { timeout: LONG }, async () => {
		const { server, home } = await term.setUp();
		// The server holds its last step for a while, so the row is seen mid-call.
		const slow = featureServer(0, { FEATURE_SLOW_MS: "3000" });
		const exitFile = await askModelToCall(server, home, "mcp__features__slow", "Slow done.", slow);
		const row = await waitForScreen((s) => s.includes("3/3 step 3"), "the progress on the row");
		expect(row).toMatch(/mcp__features__slow.*\n.*3\/3 step 3/);
		await waitForScreen((s) => s.includes("Slow done."), "the reply");
		sendKey("C-c", "C-c");
		await exitCode(exitFile);
	});
});
