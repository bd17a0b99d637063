// Issue 30 item 5: the sandbox-first mode. A scripted "fix the failing test" session (a model on
// 127.0.0.1 speaking the OpenAI wire protocol, real bwrap, real node) is run in `ask` and in `auto`, every
// approval answered "allow" and counted: in auto only leaving the sandbox (the network) and a write
// outside the workspace ask. Also: auto is the default where bwrap works, ask where it is missing or
// its probe fails.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { PermissionMode } from "../../src/permissions/types.js";
import type { SessionEvent } from "../../src/session/types.js";
import { textBody, toolCallBody } from "../helpers/openai-chunks.js";
import { mockModel } from "../helpers/routed-model-server.js";
import { type ScriptedServer, startScriptedServer } from "../helpers/sse-server.js";
import { createFixture, type Fixture } from "./session-fixture.js";

let fx: Fixture | undefined;
let model: ScriptedServer | undefined;
let net: Server | undefined;
afterEach(async () => {
	await fx?.cleanup();
	await model?.close();
	await new Promise<void>((resolve) => (net ? net.close(() => resolve()) : resolve()));
	fx = model = net = undefined;
});

/** Runs the scripted session in `mode`, allowing every approval; returns what was asked. */
async function fixTheTest(mode: PermissionMode) {
	net = createServer((socket) => socket.end("registry says ok\n"));
	await new Promise<void>((resolve) => net?.listen(0, "127.0.0.1", resolve));
	const port = (net.address() as { port: number }).port;
	model = await startScriptedServer();
	fx = await createFixture({ session: { model: mockModel(model.url), apiKey: "test-key", streamFn: undefined } });
	writeFileSync(join(fx.cwd, "math.js"), "exports.add = (a, b) => a - b;\n");
	writeFileSync(
		join(fx.cwd, "test.js"),
		"const { add } = require('./math.js');\nif (add(2, 3) !== 5) { console.error('FAIL add(2, 3) = ' + add(2, 3)); process.exit(1); }\nconsole.log('PASS');\n",
	);
	const outside = join(fx.root, "outside-notes.txt");
	const steps: [string, object][] = [
		["bash", { command: "ls" }],
		["bash", { command: "node test.js" }],
		["read", { path: "math.js" }],
		["edit", { path: "math.js", edits: [{ oldText: "a - b", newText: "a + b" }] }],
		["bash", { command: "node test.js && echo done > result.txt" }],
		// Needs the network, which the sandbox has not: fails inside, then asks to leave.
		["bash", { command: `head -1 < /dev/tcp/127.0.0.1/${port}` }],
		["write", { path: outside, content: "notes" }],
	];
	model.enqueue(...steps.map(([tool, args], i) => ({ kind: "sse" as const, chunks: [toolCallBody(tool, args, `call_${i}`)] })), {
		kind: "sse",
		chunks: [textBody("Fixed: add adds.")],
	});
	const session = await fx.open({ tools: ["read", "bash", "edit", "write"], approvals: "prompt", permissionMode: mode });
	const asked: Extract<SessionEvent, { type: "approval_request" }>[] = [];
	session.subscribe((event) => {
		if (event.type !== "approval_request") return;
		asked.push(event);
		// Allowed inside the sandbox with the network on, the way a person would answer a fetch.
		queueMicrotask(() =>
			session.respondToApproval(event.id, event.kind === "unsandboxed" ? { decision: "allow", network: true } : { decision: "allow" }),
		);
	});
	await session.prompt("make the tests pass");
	const results = session.getState().messages.filter((m) => m.role === "toolResult");
	return { asked, results, outside, session, cwd: fx.cwd };
}

describe("the sandbox-first mode (auto) with real bwrap", { timeout: 60_000 }, () => {
	it("a scripted fix-the-test session asks 7 times in ask and twice in auto: leaving the sandbox and a write outside", async () => {
		const ask = await fixTheTest("ask");
		const askPrompts = ask.asked.map((a) => `${a.kind}:${a.tool}`);
		expect(readFileSync(join(ask.cwd, "result.txt"), "utf8")).toBe("done\n");
		await fx?.cleanup();
		await model?.close();
		await new Promise<void>((resolve) => net?.close(() => resolve()));
		fx = model = net = undefined;

		const auto = await fixTheTest("auto");
		expect(auto.session.getState().permissionMode).toBe("auto");
		expect(auto.session.getState().sandbox).toBe("bwrap");
		const autoPrompts = auto.asked.map((a) => `${a.kind}:${a.tool}`);
		expect(askPrompts).toEqual(["call:bash", "call:bash", "call:edit", "call:bash", "call:bash", "unsandboxed:bash", "call:write"]);
		expect(autoPrompts).toEqual(["unsandboxed:bash", "call:write"]);
		// The same work got done: the test passes, the fetch went through once allowed, the outside write asked first.
		expect(readFileSync(join(auto.cwd, "math.js"), "utf8")).toBe("exports.add = (a, b) => a + b;\n");
		expect(readFileSync(join(auto.cwd, "result.txt"), "utf8")).toBe("done\n");
		const text = (i: number) => auto.results[i].content.map((c) => (c.type === "text" ? c.text : "")).join("");
		expect(text(1)).toContain("FAIL add(2, 3) = -1");
		expect(text(5)).toContain("registry says ok");
		expect(existsSync(auto.outside)).toBe(true);
	});

	it("in auto a command still cannot write outside the workspace, and a failed write offers no way out", async () => {
		model = await startScriptedServer();
		fx = await createFixture({ session: { model: mockModel(model.url), apiKey: "test-key", streamFn: undefined } });
		// Not under /tmp: the sandbox's /tmp is its own, so a write there lands in the sandbox.
		const folder = mkdtempSync(join(homedir(), ".rudder-auto-outside-"));
		const outside = join(folder, "escaped.txt");
		model.enqueue(
			{ kind: "sse", chunks: [toolCallBody("bash", { command: `echo x > ${outside}` }, "c1")] },
			{ kind: "sse", chunks: [textBody("ok")] },
		);
		const session = await fx.open({ tools: ["bash"], approvals: "prompt", permissionMode: "auto" });
		const asked: SessionEvent[] = [];
		session.subscribe((event) => {
			if (event.type !== "approval_request") return;
			asked.push(event);
			queueMicrotask(() => session.respondToApproval(event.id, { decision: "deny" }));
		});
		try {
			await session.prompt("go");
			// The write fails inside the sandbox; a read-only mount leaves no evidence the sandbox can show, so
			// "run it outside?" is not offered for it (only a refused connection is evidence: docs/tool-guards.md).
			expect(asked).toEqual([]);
			expect(existsSync(outside)).toBe(false);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});
});

describe("the default mode", { timeout: 30_000 }, () => {
	it("is auto where bwrap works, and ask where bwrap is missing or its probe fails", async () => {
		fx = await createFixture();
		expect((await fx.open({ tools: ["bash"] })).getState().permissionMode).toBe("auto");
		// No bwrap on PATH.
		const empty = join(fx.root, "empty-bin");
		mkdirSync(empty);
		const noBwrap = await fx.open({ tools: ["bash"], env: { ...fx.env, PATH: empty } });
		expect(noBwrap.getState()).toMatchObject({ permissionMode: "ask", sandbox: "none" });
		// A bwrap that cannot make namespaces (as where user namespaces are off).
		const broken = join(fx.root, "broken-bin");
		mkdirSync(broken);
		writeFileSync(join(broken, "bwrap"), "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n");
		chmodSync(join(broken, "bwrap"), 0o755);
		const env = { ...fx.env, PATH: `${broken}:/usr/bin:/bin` };
		expect((await fx.open({ tools: ["bash"], env })).getState().permissionMode).toBe("ask");
		// The answer is cached per binary: the second session does not run the probe again.
		expect(readFileSync(join(fx.env.RUDDER_HOME, "cache", "sandbox-probe.json"), "utf8")).toContain('"works":false');
		// A mode a flag or a settings file chose is kept.
		expect((await fx.open({ tools: ["bash"], permissionMode: "ask" })).getState().permissionMode).toBe("ask");
	});
});
