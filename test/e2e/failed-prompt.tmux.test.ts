// A prompt whose request failed, in the built app in a real terminal (tmux on a private socket, a
// 127.0.0.1 server answering HTTP 500, a temp home): the prompt stays on screen marked failed with the
// server's reason (sanitised), nothing sends it again on its own, and ↑ then Enter sends it again on
// purpose, once. RUDDER_SAVE_CAPTURE=1 writes the screen to test/e2e/capture-failed-prompt.txt.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textBody } from "../helpers/openai-chunks.js";
import { tmuxAppPerTest } from "../helpers/tmux-app.js";

const LONG = 90_000;
const term = tmuxAppPerTest("rudder-failed-prompt");
const { sendText, sendKey, waitForScreen, start } = term;

/** The chat messages of a request, as `role: text` (system prompt left out). */
const turns = (body: any): string[] =>
	body.messages
		.filter((m: any) => m.role !== "system" && m.role !== "developer")
		.map((m: any) => `${m.role}: ${typeof m.content === "string" ? m.content : m.content.map((c: any) => c.text ?? "").join("")}`);

describe("a failed prompt in a real terminal (tmux)", () => {
	it("is kept on screen marked failed, is not resent on its own, and ↑ Enter resends it on purpose", { timeout: LONG }, async () => {
		const { server } = await term.setUp();
		// The server's reason carries a terminal title escape: it must not reach the terminal raw.
		const failure = {
			kind: "status" as const,
			status: 500,
			body: JSON.stringify({ error: { message: "upstream \u001b]0;owned\u0007exploded" } }),
			headers: { "retry-after-ms": "0" },
		};
		// The first try and its three retries fail; then the resend and a later prompt are answered.
		server.enqueue(failure, failure, failure, failure);
		server.enqueue({ kind: "sse", chunks: [textBody("Here is the markdown.")] }, { kind: "sse", chunks: [textBody("Second.")] });
		await start(["--model", "mock/mock-1"], { columns: 80, rows: 24 });
		// The welcome panel names the model in use on every start, not only on the offline demo.
		expect(term.capture()).toContain("Using mock/mock-1 · /model switches");
		sendText("err500 now");
		sendKey("Enter");
		const failed = await waitForScreen((s) => s.includes("✗ not answered"), "the prompt marked failed");
		expect(failed).toContain("› err500 now");
		expect(failed).toMatch(/✗ not answered: .*HTTP 500/);
		expect(failed).toContain("exploded");
		expect(failed).toContain("↑ recalls it to send again");
		expect(failed).not.toContain("\u0007");
		// The input is empty: nothing waits to go out with the next prompt.
		expect(failed.trimEnd().split("\n").at(-2)).toMatch(/^› +ask, \/command/);
		expect(server.requests).toHaveLength(4);

		// ↑ on the empty input brings it back; Enter sends it, alone.
		sendKey("Up");
		// The input is the row above the footer.
		await waitForScreen((s) => /^› err500 now\s*$/.test(s.trimEnd().split("\n").at(-2) ?? ""), "the prompt recalled into the input");
		sendKey("Enter");
		await waitForScreen((s) => s.includes("Here is the markdown."), "the answer to the resent prompt");
		expect(turns(server.requests[4].body)).toEqual(["user: err500 now"]);

		sendText("md again");
		sendKey("Enter");
		await waitForScreen((s) => s.includes("Second."), "the next answer");
		expect(turns(server.requests[5].body)).toEqual(["user: err500 now", "assistant: Here is the markdown.", "user: md again"]);
		if (process.env.RUDDER_SAVE_CAPTURE)
			writeFileSync(join(import.meta.dirname, "capture-failed-prompt.txt"), failed.replace(/\n+$/, "\n"));
	});
});
