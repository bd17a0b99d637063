// The bash sandbox with the real bubblewrap: what a command inside may and may not do. `.ci/run`
// installs bubblewrap, so these run (and must pass) in CI.
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createBashTool } from "../../src/tools/bash.js";
import {
	bwrapArguments,
	type CommandSandbox,
	findOnPath,
	looksLikeSandboxDenial,
	makeSandboxFolders,
	platformSandbox,
} from "../../src/tools/sandbox.js";
import { useOutsideFolders } from "../helpers/outside-folder.js";
import { textOf, useTempFolder } from "./temp-folder.js";

const bwrap = findOnPath("bwrap");

describe("bash in the bwrap sandbox", { timeout: 30_000 }, () => {
	const tmp = useTempFolder();
	const makeOutside = useOutsideFolders();
	let outside: string;
	/** Every sandbox a test made (a test may run several commands), disposed after it. */
	const sandboxes: CommandSandbox[] = [];
	let sandbox: CommandSandbox | undefined;
	let server: Server;
	let port = 0;

	beforeAll(async () => {
		expect(bwrap, "bwrap must be on PATH (apt-get install bubblewrap)").toBeDefined();
		server = createServer((socket) => socket.end("hello from the host\n"));
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		port = (server.address() as { port: number }).port;
	});
	afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
	afterEach(() => {
		for (const box of sandboxes.splice(0)) box.dispose();
		sandbox?.dispose();
		sandbox = undefined;
	});

	const run = async (command: string, network = false) => {
		outside = makeOutside();
		sandbox = platformSandbox({ writable: [tmp.path], network }, "linux");
		if (!sandbox) throw new Error("no sandbox");
		sandboxes.push(sandbox);
		const box = sandbox;
		const tool = createBashTool(tmp.path, { wrapSpawn: (file, args, cwd) => box.wrap(file, args, cwd) });
		try {
			return { ok: true, text: textOf(await tool.execute("t", { command: command.replaceAll("$OUTSIDE", outside) })) };
		} catch (error) {
			return { ok: false, text: (error as Error).message };
		}
	};

	it("writes inside the workspace", async () => {
		const result = await run("echo inside > made.txt && cat made.txt");
		expect(result).toEqual({ ok: true, text: "inside" });
		expect(readFileSync(join(tmp.path, "made.txt"), "utf8")).toBe("inside\n");
	});

	it("cannot write outside the workspace", async () => {
		const result = await run("echo x > $OUTSIDE/escaped.txt");
		expect(result.ok).toBe(false);
		expect(result.text).toMatch(/Read-only file system/);
		expect(existsSync(join(outside, "escaped.txt"))).toBe(false);
		expect(looksLikeSandboxDenial(result.text)).toBe(true);
	});

	it("cannot write the home folder either", async () => {
		const result = await run("touch ~/.rudder-sandbox-probe");
		expect(result.ok).toBe(false);
	});

	it("keeps the project's .git read-only", async () => {
		mkdirSync(join(tmp.path, ".git"));
		writeFileSync(join(tmp.path, ".git", "HEAD"), "ref: refs/heads/main\n");
		const result = await run("echo evil > .git/HEAD");
		expect(result.ok).toBe(false);
		expect(readFileSync(join(tmp.path, ".git", "HEAD"), "utf8")).toBe("ref: refs/heads/main\n");
		expect(await run("cat .git/HEAD")).toEqual({ ok: true, text: "ref: refs/heads/main" });
	});

	it("keeps the project's .rudder read-only too (its settings decide what Rudder allows)", async () => {
		mkdirSync(join(tmp.path, ".rudder"));
		writeFileSync(join(tmp.path, ".rudder", "settings.json"), "{}\n");
		const result = await run(`echo '{"permissions":{"mode":"yolo"}}' > .rudder/settings.json`);
		expect(result.ok).toBe(false);
		expect(result.text).toMatch(/Read-only file system/);
		expect(readFileSync(join(tmp.path, ".rudder", "settings.json"), "utf8")).toBe("{}\n");
	});

	it("cannot reach a Unix socket under /run (docker.sock, D-Bus): /run is empty inside", async () => {
		const folder = mkdtempSync("/run/rudder-sandbox-test-");
		const path = join(folder, "agent.sock");
		const socketServer = createServer((socket) => socket.end("from the host\n"));
		await new Promise<void>((resolve) => socketServer.listen(path, resolve));
		try {
			const connect = `${process.execPath} -e 'require("net").connect(process.argv[1]).on("data", (d) => process.stdout.write(d)).on("error", (e) => { console.error(e.code); process.exit(1); })' ${path}`;
			// Outside the sandbox it connects (async: this process serves the socket).
			const host = await new Promise<string>((resolve) => execFile("/bin/bash", ["-c", connect], (_e, stdout) => resolve(stdout)));
			expect(host).toBe("from the host\n");
			const inside = await run(connect);
			expect(inside.ok).toBe(false);
			expect(inside.text).toMatch(/ENOENT/);
		} finally {
			await new Promise<void>((resolve) => socketServer.close(() => resolve()));
			rmSync(folder, { recursive: true, force: true });
		}
	});

	it("has a private, writable /tmp", async () => {
		const result = await run('echo t > /tmp/probe && cat /tmp/probe && echo "$TMPDIR"');
		expect(result).toEqual({ ok: true, text: "t\n/tmp" });
		expect(existsSync("/tmp/probe") && readFileSync("/tmp/probe", "utf8") === "t\n").toBe(false);
	});

	it("cannot reach a 127.0.0.1 listener without network; can with sandbox.network", async () => {
		const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`;
		const denied = await run(probe);
		expect(denied.ok).toBe(false);
		expect(denied.text).toMatch(/Connection refused|Network is unreachable/);
		const allowed = await run(probe, true);
		expect(allowed).toEqual({ ok: true, text: "hello from the host" });
	});

	it("hides what `hide` names at the command's start: a file reads empty, a folder lists empty, neither can be written", async () => {
		await tmp.write({ ".env": "TOKEN=sk-live-1\n", "secrets/key.pem": "PRIVATE\n", "src/app.ts": "ok\n" });
		let asked = 0;
		const hide = () => {
			asked++;
			return [join(tmp.path, ".env"), join(tmp.path, "secrets")];
		};
		sandbox = platformSandbox({ writable: [tmp.path], network: false, hide }, "linux");
		const box = sandbox as CommandSandbox;
		const tool = createBashTool(tmp.path, { wrapSpawn: (file, args, cwd) => box.wrap(file, args, cwd) });
		const shown = textOf(await tool.execute("t", { command: "cat .env; ls -A secrets; cat src/app.ts" }));
		expect(shown).toBe("ok");
		await expect(tool.execute("t", { command: "cat secrets/key.pem" })).rejects.toThrow(/No such file or directory/);
		await expect(tool.execute("t", { command: "echo x >> .env" })).rejects.toThrow(/Read-only file system/);
		await expect(tool.execute("t", { command: "touch secrets/new" })).rejects.toThrow(/Read-only file system/);
		expect(asked).toBe(4);
		expect(readFileSync(join(tmp.path, ".env"), "utf8")).toBe("TOKEN=sk-live-1\n");
		outside = makeOutside();
	});

	it("makes its folder on the first command, not before, and removes it on dispose", async () => {
		outside = makeOutside();
		const before = process.env.TMPDIR;
		process.env.TMPDIR = outside;
		try {
			const box = platformSandbox({ writable: [tmp.path], network: false }, "linux");
			if (!box) throw new Error("no sandbox");
			expect(readdirSync(outside)).toEqual([]);
			const tool = createBashTool(tmp.path, { wrapSpawn: (file, args, cwd) => box.wrap(file, args, cwd) });
			expect(textOf(await tool.execute("t", { command: "echo in" }))).toBe("in");
			expect(readdirSync(outside).filter((name) => name.startsWith("rudder-sandbox-"))).toHaveLength(1);
			box.dispose();
			expect(readdirSync(outside)).toEqual([]);
		} finally {
			if (before === undefined) delete process.env.TMPDIR;
			else process.env.TMPDIR = before;
		}
	});

	it("hides the files it is told to hide (Rudder's keys)", async () => {
		outside = makeOutside();
		const secret = join(outside, "auth.json");
		writeFileSync(secret, '{"key":"sk-secret"}');
		const folders = makeSandboxFolders();
		try {
			const args = bwrapArguments({ writable: [tmp.path], network: false, hidden: [secret] }, folders, "/bin/cat", [secret], tmp.path);
			expect(execFileSync(bwrap as string, args, { encoding: "utf8" })).toBe("");
			expect(execFileSync("/bin/cat", [secret], { encoding: "utf8" })).toContain("sk-secret");
		} finally {
			rmSync(folders.root, { recursive: true, force: true });
		}
	});
});
