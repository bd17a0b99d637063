// A server's `elicitation/create` in a session: asked where a user answers (the TUI's channel, rpc after
// opting in), declined with a notice where nobody does, answers checked against the form, a URL opened
// only after the user accepted.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../src/ai/index.js";
import { eventually, featureServer, writeGlobalSettings } from "../extensions/mcp/mcp-fixture.js";
import { createFixture, type Fixture } from "./session-fixture.js";

let fx: Fixture;
afterEach(async () => {
	await fx?.cleanup();
});

const lastToolText = (fx: Fixture) => {
	const results = fx.session.getState().messages.filter((m) => m.role === "toolResult");
	const last = results.at(-1) as { content: { text?: string }[] } | undefined;
	return last?.content.map((c) => c.text ?? "").join("") ?? "";
};

/** `serverEnv`: the feature server's environment, from the fixture's root folder. */
async function sessionWithFeatures(approvals: "prompt" | "print", serverEnv: (root: string) => Record<string, string> = () => ({})) {
	fx = await createFixture({ session: { approvals } });
	writeGlobalSettings(fx, { permissions: { allow: ["mcp__*"] }, mcpServers: { features: featureServer(0, serverEnv(fx.root)) } });
	fx.session = await fx.open({ approvals });
	return fx.session;
}

/** A $BROWSER script that appends each URL it is given to the file it returns (which exists only after one). */
function recordingBrowser(): string {
	const opened = join(fx.root, "opened.txt");
	const browser = join(fx.root, "browser.sh");
	writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`);
	chmodSync(browser, 0o755);
	fx.env.BROWSER = browser;
	return opened;
}

/** The model calls the feature server's `tool` once; resolves with the run and the question the call asked. */
async function questionFrom(tool: string) {
	fx.faux.setResponses([fauxAssistantMessage([fauxToolCall(`mcp__features__${tool}`, {})]), fauxAssistantMessage([fauxText("ok")])]);
	const run = fx.session.prompt(`use ${tool}`);
	return { run, asked: await fx.waitForEvent("elicitation_request") };
}

describe("MCP elicitation in a session", () => {
	it("shows a form with the defaults, sanitised, and sends back what the user accepted", async () => {
		const session = await sessionWithFeatures("prompt");
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("mcp__features__ask_form", {})]), fauxAssistantMessage([fauxText("ok")])]);
		const run = session.prompt("configure");
		const asked = await fx.waitForEvent("elicitation_request");
		expect(asked).toMatchObject({ server: "features", mode: "form" });
		if (asked.mode !== "form") throw new Error("form expected");
		// The server's escape sequences are visible, not sent to the terminal.
		expect(asked.message).not.toContain("\x1b");
		expect(asked.message).toContain("^[]0;pwned^G");
		expect(asked.fields.map((f) => [f.key, f.kind, "default" in f ? f.default : undefined])).toEqual([
			["name", "text", "Ada"],
			["port", "number", 8080],
			["verbose", "boolean", true],
			["color", "choice", "green"],
		]);
		expect(session.getState().pendingElicitation?.id).toBe(asked.id);
		// An answer the form forbids is refused and the question stays open.
		expect(() => session.respondToElicitation(asked.id, { action: "accept", content: { name: "x", port: 70000 } })).toThrow(
			"Port: must be at most 65535",
		);
		expect(
			session.respondToElicitation(asked.id, { action: "accept", content: { name: "Grace", port: 9000, verbose: false, color: "red" } }),
		).toBe(true);
		await run;
		expect(JSON.parse(lastToolText(fx))).toEqual({
			action: "accept",
			content: { name: "Grace", port: 9000, verbose: false, color: "red" },
		});
		expect(fx.events.some((e) => e.type === "elicitation_end" && e.action === "accept")).toBe(true);
		expect(session.getState().pendingElicitation).toBeUndefined();
	});

	it("declines with a notice where nobody can answer (print mode)", async () => {
		const session = await sessionWithFeatures("print");
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("mcp__features__ask_form", {})]), fauxAssistantMessage([fauxText("ok")])]);
		await session.prompt("configure");
		expect(JSON.parse(lastToolText(fx))).toEqual({ action: "decline" });
		expect(fx.notices().some((n) => n.includes('The MCP server "features" asked for input and was declined: nobody can answer'))).toBe(
			true,
		);
		expect(fx.events.some((e) => e.type === "elicitation_request")).toBe(false);
	});

	it("opens a URL only after the user accepts, and prints it", async () => {
		const session = await sessionWithFeatures("prompt");
		const opened = recordingBrowser();
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("mcp__features__ask_url", {})]),
			fauxAssistantMessage([fauxToolCall("mcp__features__ask_url", {})]),
			fauxAssistantMessage([fauxText("ok")]),
		]);
		const run = session.prompt("connect");
		const first = await fx.waitForEvent("elicitation_request");
		expect(first).toMatchObject({ mode: "url", url: "https://example.com/connect?x=1", message: "Sign in to the example service" });
		session.respondToElicitation(first.id, { action: "decline" });
		const second = await fx.waitForEvent("elicitation_request", (e) => e.id !== first.id);
		// Declined: nothing was opened.
		expect(() => readFileSync(opened, "utf8")).toThrow();
		session.respondToElicitation(second.id, { action: "accept" });
		await run;
		await eventually(() => {
			try {
				return readFileSync(opened, "utf8") === "https://example.com/connect?x=1\n";
			} catch {
				return false;
			}
		});
		expect(fx.notices().some((n) => n.includes("Opened: https://example.com/connect?x=1"))).toBe(true);
	});

	it("marks an accepted URL done when the server sends notifications/elicitation/complete for it", async () => {
		const session = await sessionWithFeatures("prompt", (root) => ({ FEATURE_URL_COMPLETION: join(root, "complete-now") }));
		recordingBrowser();
		const { run, asked } = await questionFrom("ask_url_then_done");
		session.respondToElicitation(asked.id, { action: "accept" });
		await run;
		await eventually(() => fx.notices().includes('The MCP server "features" says "Connect the billing account" is done'));
		expect(JSON.parse(lastToolText(fx))).toEqual({ action: "accept" });
	});

	it("closes a URL question still open when the server says its page is done; an unknown id is ignored", async () => {
		const session = await sessionWithFeatures("prompt", (root) => ({ FEATURE_URL_COMPLETION: join(root, "complete-now") }));
		const opened = recordingBrowser();
		const { run, asked } = await questionFrom("ask_url_done_meanwhile");
		expect(session.getState().pendingElicitation?.id).toBe(asked.id);
		writeFileSync(join(fx.root, "complete-now"), "");
		await eventually(() => session.getState().pendingElicitation === undefined);
		await run;
		expect(fx.events.some((e) => e.type === "elicitation_end" && e.id === asked.id && e.action === "accept")).toBe(true);
		expect(fx.notices()).toContain('The MCP server "features" says "Approve on your phone" is done; its question is closed');
		// Nothing to consent to any more: the page is not opened.
		expect(() => readFileSync(opened, "utf8")).toThrow();
		expect(JSON.parse(lastToolText(fx))).toEqual({ action: "accept" });
	});
});
