// The bash sandbox with the real bubblewrap: what a command inside may and may not do, as root and
// as an ordinary user (sandbox-users.ts: as root, every case runs a second time dropped to nobody).
// `.ci/run` installs bubblewrap, so these run (and must pass) in CI.
import { execFile, execFileSync } from "node:child_process";
import {
	closeSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BackgroundJobs } from "../../src/tools/background-jobs.js";
import { createBashTool } from "../../src/tools/bash.js";
import { makePidsCgroup } from "../../src/tools/pids-cgroup.js";
import {
	bwrapArguments,
	type CommandSandbox,
	findOnPath,
	makeSandboxFolders,
	netEvidence,
	platformSandbox,
	type SandboxSpec,
} from "../../src/tools/sandbox.js";
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from "../../src/tools/sandbox-limits.js";
import { SECCOMP_TABLES, seccompArch } from "../../src/tools/seccomp.js";
import { giveTo, removeUserFolder, type SandboxUser, sandboxUsers, usePassableTmpdir, userFolder, wrapAs } from "./sandbox-users.js";
import { textOf } from "./temp-folder.js";

const bwrap = findOnPath("bwrap");
const perl = findOnPath("perl", "/usr/bin:/bin");
const arch = seccompArch();

describe.each(sandboxUsers())("bash in the bwrap sandbox, as $name", { timeout: 30_000 }, (user: SandboxUser) => {
	usePassableTmpdir(user);
	let ws: string;
	let outside: string;
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
	beforeEach(() => {
		ws = userFolder(user, "rudder-ws-");
		outside = userFolder(user, "rudder-outside-", true);
	});
	afterEach(() => {
		sandbox?.dispose();
		sandbox = undefined;
		removeUserFolder(ws);
		removeUserFolder(outside);
	});

	const tool = (spec: Partial<SandboxSpec> = {}) => {
		sandbox?.dispose();
		sandbox = platformSandbox({ writable: [ws], network: false, runAs: user, ...spec }, "linux");
		if (!sandbox) throw new Error("no sandbox");
		return createBashTool(ws, { wrapSpawn: wrapAs(sandbox, user) });
	};
	const run = async (command: string, spec: Partial<SandboxSpec> = {}, timeout?: number) => {
		const bash = tool(spec);
		try {
			return { ok: true, text: textOf(await bash.execute("t", { command: command.replaceAll("$OUTSIDE", outside), timeout })) };
		} catch (error) {
			return { ok: false, text: (error as Error).message };
		}
	};

	it("writes inside the workspace, as the user (files keep their owner)", async () => {
		const result = await run("echo inside > made.txt && cat made.txt");
		expect(result).toEqual({ ok: true, text: "inside" });
		expect(readFileSync(join(ws, "made.txt"), "utf8")).toBe("inside\n");
		expect(statSync(join(ws, "made.txt")).uid).toBe(user.uid);
	});

	// The workspace (beforeEach), and a folder outside it that the user may write on the host (so only
	// the sandbox stops a write there); not under /tmp, which the sandbox replaces with its own.

	it("runs without capabilities, in a user namespace of its own (CapEff 0)", async () => {
		const result = await run("grep -E '^Cap(Eff|Prm|Bnd)' /proc/self/status; id -u; readlink /proc/self/ns/user");
		expect(result.ok).toBe(true);
		const [eff, prm, bnd, uid, ns] = result.text.split("\n");
		expect([eff, prm, bnd]).toEqual(["CapPrm:\t0000000000000000", "CapEff:\t0000000000000000", "CapBnd:\t0000000000000000"]);
		expect(uid).toBe(String(user.uid));
		expect(ns).not.toBe(execFileSync("readlink", ["/proc/self/ns/user"], { encoding: "utf8" }).trim());
	});

	it("cannot unmount a cover, remount / or .git writable, or mount anything (the attacks root could make)", async () => {
		mkdirSync(join(ws, ".git", "hooks"), { recursive: true });
		const secret = join(outside, "auth.json");
		writeFileSync(secret, '{"key":"sk-cover-me"}');
		giveTo(user, ws);
		giveTo(user, outside);
		const attacks = [
			`umount ${secret} && cat ${secret}`,
			"mount -o remount,rw / && touch /rudder-root-escape",
			`mount -o remount,rw,bind ${ws}/.git && echo evil > ${ws}/.git/hooks/pre-commit`,
			`mount -t tmpfs none ${outside} && echo`,
			`mount --bind ${ws} ${outside}`,
		];
		for (const attack of attacks) {
			const result = await run(attack, { hidden: [secret] });
			expect(result.text).not.toContain("sk-cover-me");
			expect(result.ok, attack).toBe(false);
		}
		expect(existsSync("/rudder-root-escape")).toBe(false);
		expect(existsSync(join(ws, ".git", "hooks", "pre-commit"))).toBe(false);
		expect(readdirSync(outside)).toEqual(["auth.json"]);
	});

	it("refuses by seccomp what needs no capability: a new user namespace, keyrings, ptrace, TIOCSTI", async () => {
		expect(arch, "a seccomp table for this machine").toBeDefined();
		expect(perl, "perl for raw system calls").toBeDefined();
		const n = SECCOMP_TABLES[arch as "x86_64"].numbers;
		// Each prints the errno of a call that works for anyone outside the sandbox (0 = it worked).
		const errno = (call: string) => `${perl} -e '${call}; print $!+0, "\\n"'`;
		const probes = [
			"unshare -U true 2>/dev/null; echo $?",
			"unshare -r true 2>/dev/null; echo $?",
			errno(`syscall(${n.keyctl}, 0, -3, 0)`),
			errno(`my ($t, $d, $v) = ("user", "k", "v"); syscall(${n.add_key}, $t, $d, $v, 1, -3)`),
			errno(`syscall(${n.ptrace}, 0, 0, 0, 0)`),
			errno('my $c = "x"; ioctl(STDIN, 0x5412, $c)'),
			errno('my $c = "x"; ioctl(STDIN, 0x100005412, $c)'),
			errno(`syscall(${n.unshare}, 0x10000000)`),
		];
		const outsideRun = execFileSync("/bin/bash", ["-c", `${probes[2]}; ${probes[4]}`], { encoding: "utf8" });
		expect(outsideRun).toBe("0\n0\n");
		const result = await run(probes.join("; "));
		expect(result.text.split("\n")).toEqual(["1", "1", "1", "1", "1", "1", "1", "1"]);
		// Ordinary ioctls still work (TIOCGWINSZ on a pipe: "not a terminal", 25).
		expect((await run(errno('ioctl(STDOUT, 0x5413, my $w = "x" x 8)'))).text).toBe("25");
	});

	it("cannot write outside the workspace", async () => {
		const result = await run("echo x > $OUTSIDE/escaped.txt");
		expect(result.ok).toBe(false);
		expect(result.text).toMatch(/Read-only file system/);
		expect(existsSync(join(outside, "escaped.txt"))).toBe(false);
	});

	it("keeps the project's .git, .rudder, .claude and .mcp.json read-only", async () => {
		mkdirSync(join(ws, ".git"));
		writeFileSync(join(ws, ".git", "HEAD"), "ref: refs/heads/main\n");
		mkdirSync(join(ws, ".rudder"));
		writeFileSync(join(ws, ".rudder", "settings.json"), "{}\n");
		mkdirSync(join(ws, ".claude"));
		writeFileSync(join(ws, ".mcp.json"), "{}\n");
		giveTo(user, ws);
		for (const attack of [
			"echo evil > .git/HEAD",
			`echo '{"permissions":{"mode":"yolo"}}' > .rudder/settings.json`,
			"echo x > .claude/settings.json",
			"echo x > .mcp.json",
			"mv .rudder r2",
		]) {
			const result = await run(attack);
			expect(result.ok, attack).toBe(false);
			expect(result.text).toMatch(/Read-only file system|Device or resource busy/);
		}
		expect(readFileSync(join(ws, ".git", "HEAD"), "utf8")).toBe("ref: refs/heads/main\n");
		expect(readFileSync(join(ws, ".rudder", "settings.json"), "utf8")).toBe("{}\n");
		expect(readFileSync(join(ws, ".mcp.json"), "utf8")).toBe("{}\n");
		expect(await run("cat .git/HEAD")).toEqual({ ok: true, text: "ref: refs/heads/main" });
	});

	it("keeps a sub-folder's .git and .rudder read-only when its parent is writable too (--add-dir ..)", async () => {
		const project = join(ws, "project");
		mkdirSync(join(project, ".git", "hooks"), { recursive: true });
		mkdirSync(join(project, ".rudder"));
		giveTo(user, ws);
		sandbox?.dispose();
		sandbox = platformSandbox({ writable: [project, ws], network: false, runAs: user }, "linux");
		const bash = createBashTool(project, { wrapSpawn: wrapAs(sandbox as CommandSandbox, user) });
		await expect(bash.execute("t", { command: "echo evil > .git/hooks/pre-commit" })).rejects.toThrow(/Read-only file system/);
		await expect(bash.execute("t", { command: "echo '{}' > .rudder/settings.json" })).rejects.toThrow(/Read-only file system/);
		expect(textOf(await bash.execute("t", { command: "echo ok > ../sibling.txt && cat ../sibling.txt" }))).toBe("ok");
		expect(readdirSync(join(project, ".git", "hooks"))).toEqual([]);
	});

	it("protects a .rudder that is a symlink at its target, and puts the link back when the command replaces it", async () => {
		mkdirSync(join(ws, "real-config"));
		writeFileSync(join(ws, "real-config", "settings.json"), "{}\n");
		execFileSync("ln", ["-s", "real-config", join(ws, ".rudder")]);
		giveTo(user, ws);
		const write = await run(`echo '{"permissions":{"mode":"yolo"}}' > .rudder/settings.json`);
		expect(write.text).toMatch(/Read-only file system/);
		const swap = await run(`rm .rudder && mkdir .rudder && echo '{"permissions":{"mode":"yolo"}}' > .rudder/settings.json`);
		expect(swap.text).toMatch(/Rudder moved .*\.rudder aside to .*\.rudder\.rudder-quarantine-1: the sandboxed command replaced it/);
		expect(execFileSync("readlink", [join(ws, ".rudder")], { encoding: "utf8" }).trim()).toBe("real-config");
		expect(readFileSync(join(ws, ".rudder", "settings.json"), "utf8")).toBe("{}\n");
	});

	it("moves aside a .rudder or .git the command creates where there was none", async () => {
		const made = await run(`mkdir .rudder && echo '{"permissions":{"mode":"yolo"}}' > .rudder/settings.json`);
		expect(made.ok).toBe(true);
		expect(made.text).toMatch(/moved .*\/\.rudder aside .*: the sandboxed command created it/);
		expect(existsSync(join(ws, ".rudder"))).toBe(false);
		expect(existsSync(join(ws, ".rudder.rudder-quarantine-1", "settings.json"))).toBe(true);
	});

	it("hides Rudder's own folders whole: a key renamed into place (/login) stays hidden", async () => {
		const config = join(outside, "config");
		mkdirSync(config);
		writeFileSync(join(config, "auth.json"), '{"key":"sk-old-key"}');
		giveTo(user, outside);
		const bash = tool({ hiddenFolders: [config] });
		// The command polls while the key file is replaced by a rename, as /login does.
		const poll = bash.execute("t", {
			command: `for i in $(seq 30); do cat ${config}/auth.json 2>/dev/null; ls -A ${config}; sleep 0.05; done; touch ${config}/x 2>&1 | head -1`,
		});
		await new Promise((resolve) => setTimeout(resolve, 300));
		writeFileSync(join(config, "auth.json.tmp"), '{"key":"sk-new-key"}');
		execFileSync("mv", [join(config, "auth.json.tmp"), join(config, "auth.json")]);
		const text = textOf(await poll);
		expect(text).not.toMatch(/sk-|auth\.json/);
		expect(text).toMatch(/Read-only file system/);
	});

	it("cannot reach a Unix socket under /run (docker.sock, D-Bus): /run is empty inside", async () => {
		const folder = mkdtempSync("/run/rudder-sandbox-test-");
		giveTo(user, folder);
		const path = join(folder, "agent.sock");
		const socketServer = createServer((socket) => socket.end("from the host\n"));
		await new Promise<void>((resolve) => socketServer.listen(path, resolve));
		try {
			const connect = `exec 3<>/dev/tcp/127.0.0.1/1 2>/dev/null; ${perl} -MIO::Socket::UNIX -e 'my $s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "ENOENT\\n"; print <$s>' ${path}`;
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
		const result = await run('echo t > /tmp/probe-rudder && cat /tmp/probe-rudder && echo "$TMPDIR"');
		expect(result).toEqual({ ok: true, text: "t\n/tmp" });
		expect(existsSync("/tmp/probe-rudder")).toBe(false);
	});

	it("cannot reach a 127.0.0.1 listener without network; can with sandbox.network; the refusal is the sandbox's evidence", async () => {
		const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`;
		sandbox?.dispose();
		const box = platformSandbox({ writable: [ws], network: false, runAs: user }, "linux") as CommandSandbox;
		sandbox = box;
		const bash = createBashTool(ws, { wrapSpawn: wrapAs(box, user) });
		await expect(bash.execute("call-1", { command: probe })).rejects.toThrow(/Connection refused|Network is unreachable/);
		expect(box.evidence("call-1")).toMatch(/1 connection\(s\) were refused/);
		expect(box.evidence("call-1")).toBeUndefined();
		// Printing the words is not evidence.
		await expect(bash.execute("call-2", { command: "echo 'EROFS: read-only file system, connection refused'; exit 1" })).rejects.toThrow();
		expect(box.evidence("call-2")).toBeUndefined();
		box.dispose();
		const allowed = await run(probe, { network: true });
		expect(allowed).toEqual({ ok: true, text: "hello from the host" });
	});

	it("shares one loopback-only network among the sandbox's commands: a background server is reachable later, the host is not", async () => {
		sandbox?.dispose();
		const box = platformSandbox({ writable: [ws], network: false, runAs: user }, "linux") as CommandSandbox;
		sandbox = box;
		const wrapSpawn = wrapAs(box, user);
		const jobs = new BackgroundJobs(ws, { wrapSpawn });
		const bash = createBashTool(ws, { wrapSpawn, jobs });
		try {
			await bash.execute("serve", { command: "exec python3 -m http.server 18765 --bind 127.0.0.1", run_in_background: true });
			const fetch =
				"curl -s -o /dev/null -w '%{http_code}' --retry 30 --retry-delay 0 --retry-connrefused --max-time 20 http://127.0.0.1:18765/";
			expect(textOf(await bash.execute("later", { command: fetch }))).toBe("200");
			// The host's own loopback listener and the outside network stay out of reach.
			await expect(bash.execute("host", { command: `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3` })).rejects.toThrow(
				/Connection refused|Network is unreachable/,
			);
			expect(box.evidence("host")).toMatch(/1 connection\(s\) were refused/);
			await expect(bash.execute("out", { command: "exec 3<>/dev/tcp/1.1.1.1/80" })).rejects.toThrow(/Network is unreachable/);
			// Nothing on the host listens there: the server lives in the sandbox's namespace only.
			expect(() => execFileSync("curl", ["-s", "--max-time", "2", "http://127.0.0.1:18765/"])).toThrow();
			// And it is a namespace of the sandbox, not the host's.
			const inside = textOf(await bash.execute("ns", { command: "readlink /proc/self/ns/net" }));
			expect(inside).not.toBe(execFileSync("readlink", ["/proc/self/ns/net"], { encoding: "utf8" }).trim());
		} finally {
			for (const job of jobs.list()) await jobs.kill(job.id);
			jobs.dispose();
		}
	});

	it("hides what `hide` names at the command's start: a file reads empty, a folder lists empty, neither can be written", async () => {
		writeFileSync(join(ws, ".env"), "TOKEN=sk-live-1\n");
		mkdirSync(join(ws, "secrets"));
		writeFileSync(join(ws, "secrets", "key.pem"), "PRIVATE\n");
		writeFileSync(join(ws, "app.ts"), "ok\n");
		giveTo(user, ws);
		let asked = 0;
		const hide = () => {
			asked++;
			return [join(ws, ".env"), join(ws, "secrets")];
		};
		const bash = tool({ hide });
		const shown = textOf(await bash.execute("t", { command: "cat .env; ls -A secrets; cat app.ts" }));
		expect(shown).toBe("ok");
		await expect(bash.execute("t", { command: "cat secrets/key.pem" })).rejects.toThrow(/No such file or directory/);
		await expect(bash.execute("t", { command: "echo x >> .env" })).rejects.toThrow(/Read-only file system|Permission denied/);
		await expect(bash.execute("t", { command: "touch secrets/new" })).rejects.toThrow(/Read-only file system|Permission denied/);
		expect(asked).toBe(4);
		expect(readFileSync(join(ws, ".env"), "utf8")).toBe("TOKEN=sk-live-1\n");
	});

	const limits = (over: Partial<SandboxLimits>): SandboxLimits => ({ ...DEFAULT_SANDBOX_LIMITS, ...over });

	it("bounds a fork bomb: forks fail past `processes`, and the bomb ends with its command", async () => {
		const forks = `${perl} -e 'my $n = 0; for (1..200) { my $p = fork; last unless defined $p; if ($p == 0) { sleep 5; exit } $n++ } print "$n\n"'`;
		const counted = await run(forks, { limits: limits({ processes: 40 }) });
		const made = Number(counted.text.split("\n")[0]);
		// As root only a pids cgroup holds the limit (RLIMIT_NPROC does not bind uid 0: see the test
		// below); where none can be made the limit does not hold (docs/tool-guards.md), and this says so.
		if (user.name === "root") {
			const cgroup = makePidsCgroup(40);
			cgroup?.remove();
			expect(cgroup, "running as root without a writable pids cgroup: the sandbox's process limit does not hold").toBeDefined();
			// Why: bwrap maps the namespace's uid to the caller's, kernel uid 0, which copy_process exempts
			// from RLIMIT_NPROC whatever uid the namespace shows. ulimit -u 20 alone lets 60 forks through.
			const forks20 = `ulimit -u 20; ${perl} -e 'my $n = 0; for (1..60) { my $p = fork; last unless defined $p; if ($p == 0) { sleep 2; exit } $n++ } print "$n\n"'`;
			const bwrapArgs = ["--unshare-user", "--uid", "1000", "--gid", "1000", "--cap-drop", "ALL", "--unshare-pid"];
			const mounts = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
			const unbound = execFileSync("bwrap", [...bwrapArgs, ...mounts, "bash", "-c", forks20], { encoding: "utf8" });
			expect(Number(unbound.trim())).toBe(60);
		}
		expect(made).toBeGreaterThan(5);
		expect(made).toBeLessThan(40);
		// As root the pids cgroup holds the limit, and says when it refused.
		if (user.name === "root")
			expect(counted.text).toContain("the sandbox's process limit (40 processes; sandbox.limits.processes) refused");
		// The real thing: it comes back (the pid namespace ends with the command) instead of taking the machine.
		const bomb = await run("bomb() { bomb | bomb & }; bomb; sleep 1", { limits: limits({ processes: 40 }) }, 5);
		expect(bomb.text).toMatch(/Resource temporarily unavailable|timed out after 5 seconds|\(no output\)/);
	});

	it("bounds a memory bomb, a runaway file and CPU time, with a line naming the limit", async () => {
		const memory = await run(`${perl} -e '$x = "x" x (512 * 1024 * 1024); print "allocated\\n"'`, { limits: limits({ memoryMiB: 128 }) });
		expect(memory.ok).toBe(false);
		expect(memory.text).not.toContain("allocated");
		const file = await run("head -c 3000000 /dev/zero > big.bin", { limits: limits({ fileSizeMiB: 1 }) });
		expect(file.text).toMatch(/killed: the sandbox's file size limit \(1 MiB per file; sandbox\.limits\.fileSizeMiB\)/);
		expect(statSync(join(ws, "big.bin")).size).toBe(1024 * 1024);
		const cpu = await run(`${perl} -e '1 while 1'`, { limits: limits({ cpuSeconds: 1 }) }, 20);
		expect(cpu.text).toMatch(/killed: the sandbox's CPU time limit \(1 s per process; sandbox\.limits\.cpuSeconds\)/);
	});

	it("makes its folder on the first command, not before, and removes it on dispose", async () => {
		const before = process.env.TMPDIR;
		const temp = userFolder(user, "rudder-tmpdir-");
		process.env.TMPDIR = temp;
		try {
			const box = platformSandbox({ writable: [ws], network: false, runAs: user }, "linux");
			if (!box) throw new Error("no sandbox");
			expect(readdirSync(temp)).toEqual([]);
			const bash = createBashTool(ws, { wrapSpawn: wrapAs(box, user) });
			expect(textOf(await bash.execute("t", { command: "echo in" }))).toBe("in");
			expect(readdirSync(temp).filter((name) => name.startsWith("rudder-sandbox-"))).toHaveLength(1);
			box.dispose();
			expect(readdirSync(temp)).toEqual([]);
		} finally {
			if (before === undefined) delete process.env.TMPDIR;
			else process.env.TMPDIR = before;
			removeUserFolder(temp);
		}
	});

	it("hides the files it is told to hide (Rudder's keys), with bwrapArguments as is", async () => {
		const secret = join(outside, "auth.json");
		writeFileSync(secret, '{"key":"sk-secret"}');
		const box = makeSandboxFolders();
		giveTo(user, box.root);
		const fd = openSync(box.seccomp as string, "r");
		try {
			const args = bwrapArguments({ writable: [ws], network: false, hidden: [secret] }, box, "/bin/cat", [secret], ws);
			const launch = user.as({ file: bwrap as string, args });
			expect(execFileSync(launch.file, launch.args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe", fd] })).toBe("");
			expect(execFileSync("/bin/cat", [secret], { encoding: "utf8" })).toContain("sk-secret");
		} finally {
			closeSync(fd);
			rmSync(box.root, { recursive: true, force: true });
		}
	});
});

describe("netEvidence", () => {
	const snmp = (noRoutes: number, attemptFails: number) =>
		`Ip: Forwarding OutNoRoutes\nIp: 2 ${noRoutes}\nTcp: RtoAlgorithm AttemptFails\nTcp: 1 ${attemptFails}\n`;
	it("counts only what failed during the command: the namespace is shared with the session's other commands", () => {
		expect(netEvidence(snmp(0, 1))).toBe(
			"inside the sandbox, which has no network, 0 packet(s) found no route and 1 connection(s) were refused",
		);
		expect(netEvidence(snmp(3, 5), snmp(3, 5))).toBeUndefined();
		expect(netEvidence(snmp(4, 5), snmp(3, 5))).toBe(
			"inside the sandbox, which has no network, 1 packet(s) found no route and 0 connection(s) were refused",
		);
	});
});
