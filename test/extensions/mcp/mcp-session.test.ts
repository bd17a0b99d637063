// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the MCP configuration syntax these tests use
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../../src/ai/index.js";
import { type McpHttpFixture, startMcpHttpServer } from "../../helpers/mcp-http-server.js";
import { createFixture, type Fixture } from "../../session/session-fixture.js";
import { eventually, markerLines, stdioServer, writeGlobalSettings, writeMcpJson } from "./mcp-fixture.js";

let fx: Fixture;
let http: McpHttpFixture | undefined;
afterEach(async () => {
	await fx?.cleanup();
	await http?.close();
	http = undefined;
});

const toolResults = (session: { getState(): { messages: readonly unknown[] } }) =>
	session.getState().messages.filter((m) => (m as { role: string }).role === "toolResult") as {
		toolName: string;
		isError: boolean;
		content: { type: string; text?: string; data?: string }[];
	}[];

/** MCP tools are not built in, so they ask (print mode: are denied) unless a rule allows them. */
const MCP_ALLOWED = { allow: ["mcp__*"] };

describe("MCP servers in a session", () => {
	it("offers a global stdio server's tools with their schemas on the first request and runs a call end to end", async () => {
		fx = await createFixture();
		writeGlobalSettings(fx, { permissions: MCP_ALLOWED, mcpServers: { fx: stdioServer() } });
		const session = await fx.open();
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("mcp__fx__echo", { text: "hi", times: "2" })]),
			fauxAssistantMessage([fauxText("done")]),
		]);
		await session.prompt("use the tool");
		const offered = fx.faux.calls[0].context.tools?.find((t) => t.name === "mcp__fx__echo");
		expect(offered?.parameters).toMatchObject({ type: "object", required: ["text"] });
		expect(fx.faux.calls[0].context.tools?.map((t) => t.name)).toEqual(
			expect.arrayContaining(["read", "ls", "mcp__fx__pixel", "mcp__fx__hang"]),
		);
		const [result] = toolResults(session);
		expect(result).toMatchObject({ toolName: "mcp__fx__echo", isError: false, content: [{ type: "text", text: "echo: hi hi" }] });
		expect(session.getState().mcpServers).toEqual([
			expect.objectContaining({ name: "fx", source: "global", status: "ready", tools: expect.arrayContaining(["mcp__fx__echo"]) }),
		]);
	});

	it("speaks streamable HTTP with the configured headers, maps images and error results", async () => {
		fx = await createFixture();
		http = await startMcpHttpServer();
		fx.env.FIXTURE_TOKEN = "tok-123456789";
		writeGlobalSettings(fx, { permissions: MCP_ALLOWED, enabledMcpjsonServers: ["web"] });
		writeMcpJson(fx, { web: { type: "http", url: http.url, headers: { Authorization: "Bearer ${FIXTURE_TOKEN}" } } });
		const session = await fx.open();
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("mcp__web__pixel", {}), fauxToolCall("mcp__web__fail", {})]),
			fauxAssistantMessage([fauxText("seen")]),
		]);
		await session.prompt("look");
		expect(http.requests.length).toBeGreaterThan(0);
		expect(http.requests.every((h) => h.authorization === "Bearer tok-123456789")).toBe(true);
		const [pixel, fail] = toolResults(session);
		expect(pixel).toMatchObject({ isError: false, content: [{ type: "image", mimeType: "image/png" }] });
		expect(fail).toMatchObject({ isError: true, content: [{ type: "text", text: "the fixture failed on purpose" }] });
		// The header value is a secret: /mcp shows the header's name only.
		await session.submit("/mcp");
		const listing = fx.notices().at(-1) ?? "";
		expect(listing).toContain(`web  ready  ${http.url} (headers: Authorization)  [mcp-json]`);
		expect(listing).not.toContain("tok-123456789");
	});

	it("a server that crashes gives one notice, its tools answer errors, and the run goes on", async () => {
		fx = await createFixture();
		writeGlobalSettings(fx, { permissions: MCP_ALLOWED, mcpServers: { fx: stdioServer() } });
		const session = await fx.open();
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("mcp__fx__crash", {})]),
			fauxAssistantMessage([fauxToolCall("mcp__fx__echo", { text: "again" })]),
			fauxAssistantMessage([fauxText("carried on")]),
		]);
		await session.prompt("crash it");
		const [crash, echo] = toolResults(session);
		expect(crash.isError).toBe(true);
		expect(echo).toMatchObject({
			isError: true,
			content: [{ type: "text", text: expect.stringContaining('MCP server "fx" is not running') }],
		});
		expect(session.getState().messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "carried on" }] });
		const failures = fx.notices().filter((n) => n.startsWith('MCP server "fx" failed'));
		expect(failures).toHaveLength(1);
		expect(failures[0]).toContain("fatal: the fixture crashed");
		expect(session.getState().mcpServers?.[0]).toMatchObject({ status: "failed" });
	});

	it("abort cuts off a hanging call and the cancellation reaches the server", async () => {
		fx = await createFixture();
		const marker = join(fx.root, "marker.txt");
		writeGlobalSettings(fx, { permissions: MCP_ALLOWED, mcpServers: { fx: stdioServer(marker) } });
		const session = await fx.open();
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("mcp__fx__hang", {})])]);
		const run = session.prompt("hang");
		await eventually(() => markerLines(marker).includes("hang started"));
		session.abort();
		await run;
		await eventually(() => markerLines(marker).includes("hang cancelled"));
		const [result] = toolResults(session);
		expect(result).toMatchObject({ toolName: "mcp__fx__hang", isError: true });
	});

	it("a call past the server's timeout ends as an error and is cancelled on the server", async () => {
		fx = await createFixture();
		const marker = join(fx.root, "marker.txt");
		writeGlobalSettings(fx, { permissions: MCP_ALLOWED, mcpServers: { fx: stdioServer(marker, { timeout: 300 }) } });
		const session = await fx.open();
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("mcp__fx__hang", {})]), fauxAssistantMessage([fauxText("moved on")])]);
		await session.prompt("hang");
		const [result] = toolResults(session);
		expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringMatching(/timed out/i) }] });
		expect(session.getState().messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "moved on" }] });
		await eventually(() => markerLines(marker).includes("hang cancelled"));
	});

	it("a server's changed tool list is offered from the next request on", async () => {
		fx = await createFixture();
		writeGlobalSettings(fx, { permissions: MCP_ALLOWED, mcpServers: { fx: stdioServer() } });
		const session = await fx.open();
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("mcp__fx__grow", {})]), fauxAssistantMessage([fauxText("grew")])]);
		await session.prompt("grow");
		expect(fx.faux.calls[0].context.tools?.map((t) => t.name)).not.toContain("mcp__fx__grown");
		await eventually(() => session.getState().mcpServers?.[0].tools.includes("mcp__fx__grown") === true);
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("mcp__fx__grown", {})]), fauxAssistantMessage([fauxText("used it")])]);
		await session.prompt("use the new one");
		expect(fx.faux.calls[2].context.tools?.map((t) => t.name)).toContain("mcp__fx__grown");
		expect(toolResults(session).at(-1)).toMatchObject({
			toolName: "mcp__fx__grown",
			isError: false,
			content: [{ type: "text", text: "I am new" }],
		});
	});

	it("a server that cannot start is one notice and the prompt goes ahead without it", async () => {
		fx = await createFixture();
		writeGlobalSettings(fx, { permissions: MCP_ALLOWED, mcpServers: { gone: { command: join(fx.root, "no-such-binary") } } });
		const session = await fx.open();
		fx.faux.setResponses([fauxAssistantMessage([fauxText("fine")])]);
		await session.prompt("hello");
		expect(fx.faux.calls[0].context.tools?.map((t) => t.name)).toEqual(["read", "ls", "task", "todo_write"]);
		expect(fx.notices().filter((n) => n.startsWith('MCP server "gone" failed'))).toHaveLength(1);
		expect(session.getState().messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
	});

	it("masks the server's env secrets in tool results, the session file and /mcp", async () => {
		const { session, result } = await callWithSecret("secret");
		expect(result.content[0].text).toBe("token=[redacted]");
		expect(JSON.stringify(fx.faux.calls[1].context.messages)).not.toContain("s3cret-value-42");
		expect(readFileSync(session.getState().sessionFile as string, "utf8")).not.toContain("s3cret-value-42");
		await session.submit("/mcp");
		expect(fx.notices().at(-1)).toContain("(env: FIXTURE_TOKEN)");
		expect(fx.notices().join("\n")).not.toContain("s3cret-value-42");
	});

	it("a protocol error that echoes the server's secret goes through the tool-result redactor like a built-in tool's", async () => {
		const { session, result } = await callWithSecret("secret_error");
		expect(result).toMatchObject({ isError: true });
		expect(result.content[0].text).toContain("token [redacted] was refused");
		expect(JSON.stringify(fx.faux.calls[1].context.messages)).not.toContain("s3cret-value-42");
		expect(readFileSync(session.getState().sessionFile as string, "utf8")).not.toContain("s3cret-value-42");
		expect(fx.notices().join("\n")).not.toContain("s3cret-value-42");
	});
});

/** Calls `tool` of a server whose env holds FIXTURE_TOKEN="s3cret-value-42"; the session and the tool's result. */
async function callWithSecret(tool: string) {
	fx = await createFixture();
	writeGlobalSettings(fx, {
		permissions: MCP_ALLOWED,
		mcpServers: { fx: stdioServer(undefined, { env: { FIXTURE_TOKEN: "s3cret-value-42" } }) },
	});
	const session = await fx.open();
	fx.faux.setResponses([fauxAssistantMessage([fauxToolCall(`mcp__fx__${tool}`, {})]), fauxAssistantMessage([fauxText("ok")])]);
	await session.prompt(`call ${tool}`);
	return { session, result: toolResults(session)[0] };
}

describe("trusting a project's MCP servers", () => {
	it("does not start an untrusted project server, says so once, and starts it after /mcp allow (remembered)", async () => {
		fx = await createFixture();
		const marker = join(fx.root, "marker.txt");
		writeMcpJson(fx, { proj: stdioServer(marker) });
		const session = await fx.open();
		fx.faux.setResponses([fauxAssistantMessage([fauxText("no tools")])]);
		await session.prompt("hi");
		expect(fx.faux.calls[0].context.tools?.map((t) => t.name)).toEqual(["read", "ls", "task", "todo_write"]);
		const notices = fx.notices().filter((n) => n.includes("not trusted yet"));
		expect(notices).toHaveLength(1);
		expect(notices[0]).toContain(`proj (${process.execPath} ${stdioServer(marker).args?.toString().replace(",", " ")})`);
		expect(notices[0]).toContain('"enabledMcpjsonServers": ["proj"]');
		expect(notices[0]).toContain(join(fx.env.RUDDER_HOME, "settings.json"));
		expect(session.getState().mcpServers?.[0]).toMatchObject({ name: "proj", status: "untrusted" });
		expect(markerLines(marker)).toEqual([]);

		await session.submit("/mcp allow");
		expect(fx.notices().at(-1)).toBe("Trusted and starting: proj; remembered for this folder");
		await eventually(() => session.getState().mcpServers?.[0].status === "ready");
		expect(markerLines(marker)).toEqual(["started"]);

		// A new session in the same folder starts it without asking.
		const again = await fx.open();
		again.startMcpServers("headless");
		await eventually(() => again.getState().mcpServers?.[0].status === "ready");
		expect(fx.notices().filter((n) => n.includes("not trusted yet"))).toHaveLength(1);
	});

	it("asks again when the trusted command line changes, and ignores trust settings in project files", async () => {
		fx = await createFixture();
		writeMcpJson(fx, { proj: stdioServer() });
		const first = await fx.open();
		first.startMcpServers("headless");
		first.answerMcpTrust(true);
		writeMcpJson(fx, { proj: stdioServer(undefined, { args: [process.argv[1] ?? "other.js"] }) });
		putProjectSettings(fx, { enableAllProjectMcpServers: true });
		const changed = await fx.open();
		changed.startMcpServers("headless");
		expect(changed.getState().mcpServers?.[0]).toMatchObject({ status: "untrusted" });
		expect(fx.notices()).toContain(
			`Ignored the MCP trust settings in ${join(fx.cwd, ".rudder", "settings.json")}: only your global settings can trust a project's servers`,
		);
	});

	it("an answer given before the servers start (the app's prompt) lets them start with the others", async () => {
		fx = await createFixture();
		writeMcpJson(fx, { proj: stdioServer() });
		const session = await fx.open();
		expect(session.mcpTrustRequest()?.servers).toEqual([
			expect.objectContaining({ name: "proj", source: "mcp-json", target: expect.stringContaining("stdio-server.mjs") }),
		]);
		expect(session.answerMcpTrust(true)).toEqual(["proj"]);
		expect(session.getState().mcpServers?.[0].status).toBe("stopped");
		expect(session.mcpTrustRequest()).toBeUndefined();
		session.startMcpServers("interactive");
		await eventually(() => session.getState().mcpServers?.[0].status === "ready");
		expect(fx.notices().filter((n) => n.includes("MCP"))).toEqual([]);
	});

	it("remembers the answer by the folder's real path, so a symlink to the project is the same project", async () => {
		fx = await createFixture();
		writeMcpJson(fx, { proj: stdioServer() });
		const first = await fx.open();
		first.answerMcpTrust(true);
		const link = join(fx.root, "link");
		symlinkSync(fx.cwd, link);
		const viaLink = await fx.open({ cwd: link });
		expect(viaLink.mcpTrustRequest()).toBeUndefined();
		expect(viaLink.getState().mcpServers?.[0].status).toBe("stopped");
	});

	it("/mcp deny is remembered: no notice next time, and /mcp lists it as declined", async () => {
		fx = await createFixture();
		writeMcpJson(fx, { proj: stdioServer() });
		const first = await fx.open();
		first.startMcpServers("interactive");
		expect(fx.notices().at(-1)).toMatch(/^This project configures MCP servers that would run with your permissions:\n {2}proj: /);
		await first.submit("/mcp deny");
		const before = fx.notices().length;
		const next = await fx.open();
		next.startMcpServers("headless");
		expect(
			fx
				.notices()
				.slice(before)
				.filter((n) => n.includes("not trusted")),
		).toEqual([]);
		await next.submit("/mcp");
		expect(fx.notices().at(-1)).toMatch(/proj {2}declined .*\n {4}start it with \/mcp allow/);
	});
});

function putProjectSettings(fx: Fixture, settings: Record<string, unknown>): void {
	mkdirSync(join(fx.cwd, ".rudder"), { recursive: true });
	writeFileSync(join(fx.cwd, ".rudder", "settings.json"), JSON.stringify(settings));
}
