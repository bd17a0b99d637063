// web_fetch through a real session: the gate asks per domain, "always" saves a `domain:` rule, and that
// rule (naming the host) is what lets the fetch reach a loopback server.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../src/ai/index.js";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../src/ai/index.js";
import { createFixture, type Fixture } from "./session-fixture.js";

let fx: Fixture;
let server: Server | undefined;
afterEach(async () => {
	await fx?.cleanup();
	server?.closeAllConnections();
	await new Promise((r) => (server ? server.close(r) : r(undefined)));
	server = undefined;
});

const resultText = (m: ToolResultMessage) => m.content.map((c) => (c.type === "text" ? c.text : "")).join("");

describe("web_fetch in a session", { timeout: 30_000 }, () => {
	it("asks for the domain, saves web_fetch(domain:<host>) on 'always', and that rule opens the loopback host", async () => {
		server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<h1>Local docs</h1>"));
		await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
		fx = await createFixture();
		const session = await fx.open({ tools: ["web_fetch"], approvals: "prompt", sandboxFactory: () => undefined, permissionMode: "yolo" });
		fx.faux.setResponses([
			// yolo allows the call, but not a loopback address without a rule naming the host.
			fauxAssistantMessage([fauxToolCall("web_fetch", { url })]),
			fauxAssistantMessage([fauxText("done")]),
		]);
		await session.prompt("go");
		const refused = session.getState().messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
		expect(refused[0].isError).toBe(true);
		expect(resultText(refused[0])).toMatch(/refused: 127\.0\.0\.1 is loopback .*web_fetch\(domain:127\.0\.0\.1\)/);

		const asking = await fx.open({ tools: ["web_fetch"], approvals: "prompt", sandboxFactory: () => undefined });
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("web_fetch", { url })]),
			fauxAssistantMessage([fauxToolCall("web_fetch", { url: `${url}again` })]),
			fauxAssistantMessage([fauxText("done")]),
		]);
		const run = asking.prompt("go");
		const request = await fx.waitForEvent("approval_request");
		expect(request).toMatchObject({
			tool: "web_fetch",
			reason: expect.stringMatching(/^web_fetch 127\.0\.0\.1: 127\.0\.0\.1 is loopback .*allow once is refused$/),
		});
		asking.respondToApproval(request.id, { decision: "always", scope: "session" });
		await run;
		const results = asking.getState().messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
		expect(fx.events.filter((e) => e.type === "approval_request")).toHaveLength(1);
		expect(results.map((r) => r.isError)).toEqual([false, false]);
		expect(resultText(results[1])).toContain("# Local docs");
		expect(resultText(results[1]).split("\n")[0]).toMatch(/^\[Untrusted web content/);
	});
});
