// Permissions through a real session: the faux model asks for tool calls, the gate decides, the
// approval events carry the preview, and the answers reach the model as tool results.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../src/ai/index.js";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../src/ai/index.js";
import type { AgentSession } from "../../src/session/agent-session.js";
import { loadPermissionSetup } from "../../src/session/session-permissions.js";
import type { SessionEvent } from "../../src/session/types.js";
import { useOutsideFolders } from "../helpers/outside-folder.js";
import { createFixture, type Fixture } from "./session-fixture.js";

let fx: Fixture;
afterEach(async () => fx?.cleanup());

const toolResults = (session: AgentSession) => session.getState().messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
const resultText = (m: ToolResultMessage) => m.content.map((c) => (c.type === "text" ? c.text : "")).join("");
const requests = (f: Fixture) =>
	f.events.filter((e): e is Extract<SessionEvent, { type: "approval_request" }> => e.type === "approval_request");

async function open(options: Parameters<Fixture["open"]>[0] = {}) {
	fx = await createFixture();
	return fx.open({ tools: ["read", "bash", "edit", "write"], approvals: "prompt", sandboxFactory: () => undefined, ...options });
}

describe("approvals in a session", { timeout: 30_000 }, () => {
	it("asks for an edit and a command of one reply one at a time, in order, with the diff first; a denial's reason reaches the model", async () => {
		const session = await open();
		writeFileSync(join(fx.cwd, "a.txt"), "one\ntwo\n");
		fx.faux.setResponses([
			// Read first: edit refuses a file the model has not seen.
			fauxAssistantMessage([fauxToolCall("read", { path: "a.txt" })]),
			fauxAssistantMessage([
				fauxToolCall("edit", { path: "a.txt", edits: [{ oldText: "two", newText: "TWO" }] }, { id: "e1" }),
				fauxToolCall("bash", { command: "echo hi" }, { id: "b1" }),
			]),
			fauxAssistantMessage([fauxText("done")]),
		]);
		const run = session.prompt("go");
		const first = await fx.waitForEvent("approval_request");
		expect(first).toMatchObject({ toolCallId: "e1", tool: "edit", kind: "call", reason: "edit a.txt changes a file" });
		expect(first.preview).toMatchObject({ type: "diff", path: "a.txt" });
		expect((first.preview as { diff: string }).diff).toContain("-two\n+TWO");
		// Nothing written before the answer, and the second call is not asked yet.
		expect(readFileSync(join(fx.cwd, "a.txt"), "utf8")).toBe("one\ntwo\n");
		expect(requests(fx)).toHaveLength(1);
		expect(session.getState().pendingApproval?.id).toBe(first.id);
		expect(session.respondToApproval(first.id, { decision: "allow" })).toBe(true);
		const second = await fx.waitForEvent("approval_request", (e) => e.id !== first.id);
		expect(second).toMatchObject({ toolCallId: "b1", tool: "bash", preview: { type: "command", command: "echo hi", sandbox: "none" } });
		session.respondToApproval(second.id, { decision: "deny", reason: "not now, run the tests instead" });
		await run;
		expect(readFileSync(join(fx.cwd, "a.txt"), "utf8")).toBe("one\nTWO\n");
		const [, edit, bash] = toolResults(session);
		expect(edit.isError).toBe(false);
		expect(bash.isError).toBe(true);
		expect(resultText(bash)).toBe("The user denied this call: not now, run the tests instead");
		expect(session.getState().pendingApproval).toBeUndefined();
		expect(session.respondToApproval(second.id, { decision: "allow" })).toBe(false);
	});

	it("'always' allows the same command again without asking, for this session", async () => {
		const session = await open();
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo once" })]),
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo once" })]),
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo other" })]),
			fauxAssistantMessage([fauxText("done")]),
		]);
		const run = session.prompt("go");
		const first = await fx.waitForEvent("approval_request");
		session.respondToApproval(first.id, { decision: "always", scope: "session" });
		const third = await fx.waitForEvent("approval_request", (e) => e.id !== first.id);
		expect(third.args).toEqual({ command: "echo other" });
		session.respondToApproval(third.id, { decision: "allow" });
		await run;
		expect(requests(fx)).toHaveLength(2);
		expect(toolResults(session).map(resultText)).toEqual(["once", "once", "other"]);
	});

	it("'always in this project' is remembered in the data folder and applies to the next session", async () => {
		const session = await open();
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("bash", { command: "echo p" })]), fauxAssistantMessage([fauxText("done")])]);
		const run = session.prompt("go");
		const request = await fx.waitForEvent("approval_request");
		session.respondToApproval(request.id, { decision: "always", scope: "project" });
		await run;
		const next = await fx.open({
			tools: ["bash"],
			approvals: "prompt",
			sandboxFactory: () => undefined,
			permissions: loadPermissionSetup({ cwd: fx.cwd, env: fx.env }),
		});
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("bash", { command: "echo p" })]), fauxAssistantMessage([fauxText("done")])]);
		await next.prompt("again");
		expect(requests(fx)).toHaveLength(1);
		expect(existsSync(join(fx.cwd, ".rudder"))).toBe(false);
	});

	it("abort while an approval waits denies it and stops the run", async () => {
		const session = await open();
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo never" }), fauxToolCall("bash", { command: "echo never2" })]),
			fauxAssistantMessage([fauxText("unused")]),
		]);
		const run = session.prompt("go");
		const request = await fx.waitForEvent("approval_request");
		session.respondToApproval(request.id, { decision: "deny", reason: "The user stopped the run." });
		session.abort();
		await run;
		expect(requests(fx)).toHaveLength(1);
		expect(toolResults(session).every((r) => r.isError)).toBe(true);
		expect(fx.faux.calls).toHaveLength(1);
	});

	it("print mode denies a call that would ask, naming the flag that allows it, and the run goes on", async () => {
		const session = await open({ approvals: "print" });
		writeFileSync(join(fx.cwd, "a.txt"), "x");
		fx.faux.setResponses([
			fauxAssistantMessage([
				fauxToolCall("bash", { command: "npm test -- --run" }),
				fauxToolCall("write", { path: "a.txt", content: "y" }),
			]),
			fauxAssistantMessage([fauxText("I could not run it")]),
		]);
		await session.prompt("go");
		const [bash, write] = toolResults(session).map(resultText);
		expect(bash).toBe(
			'Not run: the command `npm test -- --run` needs the user\'s approval (commands ask first), and print mode cannot ask. To allow it, run rudder with --allow "bash(npm test*)".',
		);
		expect(write).toContain('run rudder with --permission-mode auto-edit or --allow "edit(a.txt)"');
		expect(readFileSync(join(fx.cwd, "a.txt"), "utf8")).toBe("x");
		expect(fx.faux.calls).toHaveLength(2);
		expect(requests(fx)).toHaveLength(0);
	});

	it("plan mode refuses writes and commands and says so in the system prompt; switching mode updates it", async () => {
		const session = await open({ permissionMode: "plan" });
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("write", { path: "new.txt", content: "y" })]),
			fauxAssistantMessage([fauxText("ok")]),
			fauxAssistantMessage([fauxText("ok")]),
		]);
		await session.prompt("go");
		expect(resultText(toolResults(session)[0])).toMatch(/^Permission mode "plan" forbids writing files/);
		expect(existsSync(join(fx.cwd, "new.txt"))).toBe(false);
		expect(fx.faux.calls[0].context.systemPrompt).toContain("Permission mode: plan.");
		session.setPermissionMode("auto-edit");
		expect(session.getState().permissionMode).toBe("auto-edit");
		await session.prompt("again");
		expect(fx.faux.calls[2].context.systemPrompt).toContain("Permission mode: auto-edit.");
	});

	it("Shift+Tab's cycle: ask → auto-edit → auto → plan → ask; yolo only when it was chosen", async () => {
		const session = await open();
		const cycled = [1, 2, 3, 4].map(() => session.cyclePermissionMode());
		expect(cycled).toEqual(["auto-edit", "auto", "plan", "ask"]);
		const yolo = await fx.open({ permissionMode: "yolo" });
		expect(yolo.getState().permissionMode).toBe("yolo");
		expect([1, 2, 3, 4, 5].map(() => yolo.cyclePermissionMode())).toEqual(["ask", "auto-edit", "auto", "plan", "yolo"]);
	});

	it("an untrusted project's widening is ignored with one notice; its deny rules apply", async () => {
		fx = await createFixture();
		mkdirSync(join(fx.cwd, ".rudder"));
		writeFileSync(
			join(fx.cwd, ".rudder", "settings.json"),
			JSON.stringify({ permissions: { mode: "yolo", allow: ["bash"], deny: ["read(.env)"] } }),
		);
		writeFileSync(join(fx.cwd, ".env"), "SECRET=1");
		const session = await fx.open({ tools: ["read", "bash"], approvals: "print", sandboxFactory: () => undefined });
		expect(session.getState().permissionMode).toBe("ask");
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("read", { path: ".env" }), fauxToolCall("bash", { command: "ls" })]),
			fauxAssistantMessage([fauxText("ok")]),
		]);
		await session.prompt("go");
		const notices = fx.notices().filter((n) => n.includes("not trusted"));
		expect(notices).toHaveLength(1);
		expect(notices[0]).toContain(
			`Ignored permissions.mode "yolo", permissions.allow "bash" in ${join(fx.cwd, ".rudder", "settings.json")}`,
		);
		const [read, bash] = toolResults(session).map(resultText);
		expect(read).toMatch(/denied by the rule "read\(.env\)"/);
		expect(read).not.toContain("SECRET");
		expect(bash).toMatch(/^Not run: the command `ls`/);
		const trusted = await fx.open({ tools: ["bash"], permissions: loadPermissionSetup({ cwd: fx.cwd, env: fx.env, trustProject: true }) });
		expect(trusted.getState().permissionMode).toBe("yolo");
		expect(loadPermissionSetup({ cwd: fx.cwd, env: fx.env }).trusted).toBe(true);
	});

	it("a project that only changes the model or turns checkpoints off is asked about like a widening, listing what waits", async () => {
		fx = await createFixture();
		mkdirSync(join(fx.cwd, ".rudder"));
		writeFileSync(join(fx.cwd, ".rudder", "settings.json"), JSON.stringify({ defaultModel: "local/other", checkpoints: false }));
		const setup = loadPermissionSetup({ cwd: fx.cwd, env: fx.env });
		expect(setup.resolved.widenings).toEqual([]);
		expect(setup.trustUnknown).toBe(true);
		expect(setup.held.map((h) => h.entry)).toEqual(['defaultModel "local/other"', "checkpoints false"]);
		expect(loadPermissionSetup({ cwd: fx.cwd, env: fx.env, trustAnswer: false }).trustUnknown).toBe(false);
	});
});

describe("a command that fails in the sandbox", { timeout: 30_000 }, () => {
	const makeOutside = useOutsideFolders();

	it("runs outside it only after an approval that says so, when the sandbox saw it hit its walls (a refused connection)", async () => {
		fx = await createFixture();
		const outside = makeOutside();
		const session = await fx.open({ tools: ["bash"], approvals: "prompt", permissionMode: "ask" });
		expect(session.getState().sandbox).toBe("bwrap");
		// Port 9 (discard) on loopback: refused inside the sandbox's empty network.
		const command = `(exec 3<>/dev/tcp/127.0.0.1/9) 2>/dev/null; echo hi > ${outside}/x.txt`;
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { command })]),
			fauxAssistantMessage([fauxToolCall("bash", { command })]),
			fauxAssistantMessage([fauxText("ok")]),
		]);
		const run = session.prompt("go");
		const ask = await fx.waitForEvent("approval_request");
		session.respondToApproval(ask.id, { decision: "allow" });
		const retry = await fx.waitForEvent("approval_request", (e) => e.kind === "unsandboxed");
		expect(retry.preview).toMatchObject({ type: "command", command, sandbox: "none" });
		expect(retry.reason).toMatch(/connection\(s\) were refused/);
		expect(existsSync(join(outside, "x.txt"))).toBe(false);
		session.respondToApproval(retry.id, { decision: "deny" });
		const again = await fx.waitForEvent("approval_request", (e) => e.id !== ask.id && e.id !== retry.id);
		session.respondToApproval(again.id, { decision: "allow" });
		const retry2 = await fx.waitForEvent("approval_request", (e) => e.kind === "unsandboxed" && e.id !== retry.id);
		session.respondToApproval(retry2.id, { decision: "allow" });
		await run;
		const [denied, allowed] = toolResults(session);
		expect(denied.isError).toBe(true);
		expect(resultText(denied)).toMatch(/Read-only file system[\s\S]*ran in a sandbox[\s\S]*did not allow running it outside/);
		expect(allowed.isError).toBe(false);
		expect(readFileSync(join(outside, "x.txt"), "utf8")).toBe("hi\n");
	});

	it("run outside after an approval, still gets the commands' environment: no credential-named variable", async () => {
		fx = await createFixture();
		const outside = makeOutside();
		process.env.RUDDER_TEST_SERVICE_TOKEN = "tok-outside-123";
		try {
			const session = await fx.open({ tools: ["bash"], approvals: "prompt", permissionMode: "auto" });
			const command = `(exec 3<>/dev/tcp/127.0.0.1/9) 2>/dev/null; echo "tok=\${RUDDER_TEST_SERVICE_TOKEN:-none}" > ${outside}/env.txt`;
			fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("bash", { command })]), fauxAssistantMessage([fauxText("ok")])]);
			const run = session.prompt("go");
			const retry = await fx.waitForEvent("approval_request", (e) => e.kind === "unsandboxed");
			session.respondToApproval(retry.id, { decision: "allow" });
			await run;
			expect(readFileSync(join(outside, "env.txt"), "utf8")).toBe("tok=none\n");
		} finally {
			delete process.env.RUDDER_TEST_SERVICE_TOKEN;
		}
	});

	it("is not offered on what the command printed: a script that prints EROFS and fails asks nothing more", async () => {
		fx = await createFixture();
		const session = await fx.open({ tools: ["bash"], approvals: "prompt", permissionMode: "ask" });
		const command = "echo 'EROFS: read-only file system, open /home/u/.npmrc; connect ECONNREFUSED; Operation not permitted' >&2; exit 1";
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("bash", { command })]), fauxAssistantMessage([fauxText("ok")])]);
		const run = session.prompt("go");
		session.respondToApproval((await fx.waitForEvent("approval_request")).id, { decision: "allow" });
		await run;
		expect(requests(fx)).toHaveLength(1);
		expect(resultText(toolResults(session)[0])).not.toContain("ran in a sandbox");
	});
});

describe("a command that fails in the sandbox where nobody can approve (print)", { timeout: 30_000 }, () => {
	const makeOutside = useOutsideFolders();

	it("is never run outside it: the model gets the failure and a note on the sandbox", async () => {
		fx = await createFixture();
		const outside = makeOutside();
		const command = `(exec 3<>/dev/tcp/127.0.0.1/9) 2>/dev/null; echo hi > ${outside}/x.txt`;
		const session = await fx.open({
			tools: ["bash"],
			approvals: "print",
			permissions: loadPermissionSetup({ cwd: fx.cwd, env: fx.env, flags: { allow: ["bash"] } }),
		});
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("bash", { command })]), fauxAssistantMessage([fauxText("ok")])]);
		await session.prompt("go");
		const [result] = toolResults(session);
		expect(result.isError).toBe(true);
		expect(resultText(result)).toMatch(/Read-only file system[\s\S]*This command ran in a sandbox/);
		expect(existsSync(join(outside, "x.txt"))).toBe(false);
		expect(requests(fx)).toHaveLength(0);
	});
});

describe("a command that needs the network", { timeout: 30_000 }, () => {
	const makeOutside = useOutsideFolders();
	let server: Server;
	afterEach(async () => {
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});

	it("may run again inside the sandbox with the network on, once approved; writes outside still fail", async () => {
		server = createServer((socket) => socket.end("pong\n"));
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		const port = (server.address() as { port: number }).port;
		fx = await createFixture();
		const outside = makeOutside();
		// In ask mode (auto, the default with a working sandbox, would not ask the first time: auto-mode.test.ts).
		const session = await fx.open({ tools: ["bash"], approvals: "prompt", permissionMode: "ask" });
		const command = `head -1 < /dev/tcp/127.0.0.1/${port} && touch ${outside}/x`;
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("bash", { command })]), fauxAssistantMessage([fauxText("ok")])]);
		const run = session.prompt("go");
		session.respondToApproval((await fx.waitForEvent("approval_request")).id, { decision: "allow" });
		const retry = await fx.waitForEvent("approval_request", (e) => e.kind === "unsandboxed");
		session.respondToApproval(retry.id, { decision: "allow", network: true });
		await run;
		const [result] = toolResults(session);
		expect(resultText(result)).toMatch(/^pong\n[\s\S]*Read-only file system/);
		expect(existsSync(join(outside, "x"))).toBe(false);
	});
});

describe("print mode outside the workspace", () => {
	const makeOutside = useOutsideFolders();
	it("names --add-dir with the file's folder", async () => {
		fx = await createFixture();
		const outside = makeOutside();
		writeFileSync(join(outside, "notes.txt"), "n");
		const session = await fx.open({ tools: ["read"], approvals: "print" });
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("read", { path: join(outside, "notes.txt") })]),
			fauxAssistantMessage([fauxText("ok")]),
		]);
		await session.prompt("go");
		const text = resultText(toolResults(session)[0]);
		expect(text).toContain("is outside the workspace");
		expect(text).toContain(`run rudder with --add-dir "${outside}".`);
	});
});

describe("read deny rules hold for every tool", { timeout: 30_000 }, () => {
	const SECRET = "SECRET_VALUE_42";
	async function openWithDeny(deny: string[]) {
		fx = await createFixture();
		mkdirSync(join(fx.cwd, "secrets", "deep"), { recursive: true });
		mkdirSync(join(fx.cwd, "src"));
		writeFileSync(join(fx.cwd, ".env"), `TOKEN=${SECRET}\n`);
		writeFileSync(join(fx.cwd, "secrets", "key.pem"), `${SECRET}\n`);
		writeFileSync(join(fx.cwd, "secrets", "deep", "more.txt"), `${SECRET}\n`);
		writeFileSync(join(fx.cwd, "src", "app.ts"), "const token = process.env.TOKEN;\n");
		symlinkSync(join(fx.cwd, ".env"), join(fx.cwd, "src", "env-link"));
		return fx.open({
			tools: ["read", "grep", "find", "ls"],
			approvals: "print",
			sandboxFactory: () => undefined,
			permissions: loadPermissionSetup({ cwd: fx.cwd, env: fx.env, flags: { deny } }),
		});
	}

	it("grep, find and ls over the folder skip .env, secrets/** and a link to .env, and say so; named directly they are refused", async () => {
		const session = await openWithDeny(["read(.env)", "read(secrets/**)"]);
		fx.faux.setResponses([
			fauxAssistantMessage([
				fauxToolCall("grep", { pattern: "SECRET|TOKEN" }),
				fauxToolCall("find", { pattern: "*" }),
				fauxToolCall("ls", {}),
				fauxToolCall("ls", { path: "src" }),
				fauxToolCall("ls", { path: "secrets" }),
				fauxToolCall("grep", { pattern: "x", path: "secrets/deep" }),
				fauxToolCall("find", { pattern: "*", path: "secrets" }),
				fauxToolCall("read", { path: "src/env-link" }),
			]),
			fauxAssistantMessage([fauxText("ok")]),
		]);
		await session.prompt("look around");
		const [grep, find, ls, lsSrc, lsSecrets, grepSecrets, findSecrets, readLink] = toolResults(session);
		for (const result of toolResults(session)) expect(resultText(result)).not.toContain(SECRET);
		expect(resultText(grep)).toBe("src/app.ts:1: const token = process.env.TOKEN;\n\n[3 paths hidden by permissions.deny rules]");
		expect(resultText(find)).toBe("src/\nsrc/app.ts\n\n[3 paths hidden by permissions.deny rules]");
		expect(resultText(ls)).toBe("src/\n\n[2 entries hidden by permissions.deny rules]");
		expect(resultText(lsSrc)).toBe("app.ts\n\n[1 entry hidden by permissions.deny rules]");
		for (const denied of [lsSecrets, grepSecrets, findSecrets, readLink]) {
			expect(denied.isError).toBe(true);
			expect(resultText(denied)).toMatch(/is denied by the rule "read\((secrets\/\*\*|\.env)\)"/);
		}
	});

	it("bash in the sandbox sees .env, secrets/ and *.pem files empty, also through a link; the rest as is", async () => {
		fx = await createFixture();
		mkdirSync(join(fx.cwd, "secrets"));
		mkdirSync(join(fx.cwd, "src", "certs"), { recursive: true });
		writeFileSync(join(fx.cwd, ".env"), `TOKEN=${SECRET}\n`);
		writeFileSync(join(fx.cwd, "secrets", "a.txt"), `${SECRET}\n`);
		writeFileSync(join(fx.cwd, "src", "certs", "server.pem"), `${SECRET}\n`);
		writeFileSync(join(fx.cwd, "src", "app.ts"), "visible\n");
		symlinkSync(join(fx.cwd, ".env"), join(fx.cwd, "src", "env-link"));
		const session = await fx.open({
			tools: ["bash"],
			approvals: "prompt",
			permissions: loadPermissionSetup({
				cwd: fx.cwd,
				env: fx.env,
				flags: { mode: "ask", deny: ["read(.env)", "read(secrets/**)", "read(**/*.pem)"] },
			}),
		});
		expect(session.getState().sandbox).toBe("bwrap");
		const command = "cat .env src/env-link src/certs/server.pem; ls -A secrets; grep -r SECRET . ; cat src/app.ts";
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("bash", { command })]), fauxAssistantMessage([fauxText("ok")])]);
		const run = session.prompt("go");
		session.respondToApproval((await fx.waitForEvent("approval_request")).id, { decision: "allow" });
		await run;
		const [result] = toolResults(session);
		expect(resultText(result)).not.toContain(SECRET);
		expect(resultText(result)).toContain("visible");
		expect(readFileSync(join(fx.cwd, ".env"), "utf8")).toBe(`TOKEN=${SECRET}\n`);
	});

	it("a rule naming a folder covers what is in it", async () => {
		const session = await openWithDeny(["read(secrets)"]);
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("read", { path: "secrets/deep/more.txt" }), fauxToolCall("grep", { pattern: "SECRET" })]),
			fauxAssistantMessage([fauxText("ok")]),
		]);
		await session.prompt("go");
		const [read, grep] = toolResults(session);
		expect(resultText(read)).toBe('read secrets/deep/more.txt is denied by the rule "read(secrets)" (--deny)');
		expect(resultText(grep)).toBe(`.env:1: TOKEN=${SECRET}\nsrc/env-link:1: TOKEN=${SECRET}\n\n[1 path hidden by permissions.deny rules]`);
	});
});

describe("Rudder's own folders in the sandbox", { timeout: 30_000 }, () => {
	it("are hidden whole: keys, sessions and checkpoints (copies of files deny rules hide) list empty", async () => {
		fx = await createFixture();
		const { cacheDir, configDir, dataDir } = await import("../../src/config/paths.js");
		const { platformSandbox } = await import("../../src/tools/sandbox.js");
		const store = join(dataDir(fx.env), "checkpoints", "ws");
		mkdirSync(store, { recursive: true });
		writeFileSync(join(store, "blob"), "copy of a denied .env: SECRET=1");
		mkdirSync(configDir(fx.env), { recursive: true });
		writeFileSync(join(configDir(fx.env), "auth.json"), '{"k":"sk-auth-json-key-1234"}');
		// MCP sign-ins (src/extensions/mcp/auth/token-store.ts) live in the data folder.
		const mcpOAuth = join(dataDir(fx.env), "mcp-oauth.json");
		writeFileSync(mcpOAuth, '{"servers":{"gh https://x/mcp":{"tokens":{"access_token":"mcp-oauth-token-5678"}}}}', { mode: 0o600 });
		let folders: readonly string[] | undefined;
		const session = await fx.open({
			tools: ["bash"],
			approvals: "print",
			permissions: loadPermissionSetup({ cwd: fx.cwd, env: fx.env, flags: { allow: ["bash"] } }),
			sandboxFactory: (spec) => {
				folders = spec.hiddenFolders;
				return platformSandbox(spec, "linux");
			},
		});
		const command = `cat ${join(store, "blob")} ${join(configDir(fx.env), "auth.json")} ${mcpOAuth} 2>/dev/null; ls -A ${dataDir(fx.env)} ${configDir(fx.env)} 2>/dev/null; echo end`;
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("bash", { command })]), fauxAssistantMessage([fauxText("ok")])]);
		await session.prompt("go");
		expect(folders).toEqual([configDir(fx.env), dataDir(fx.env), cacheDir(fx.env)]);
		const text = resultText(toolResults(session)[0]);
		expect(text).not.toMatch(/SECRET|sk-auth|checkpoints|auth\.json|mcp-oauth/);
		expect(text).toMatch(/end$/);
	});
});
