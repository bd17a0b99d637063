// The hostile corpus of sandbox escapes (test/fixtures/hostile/sandbox/*.sh): each attack of issue 29
// as a script a hostile repository could make a model run, run through the bash tool in the real
// bwrap sandbox as root and as an ordinary user, with what must hold afterwards. Every script in the
// folder must have a row here.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processSecrets } from "../../src/safety/secrets.js";
import { createBashTool } from "../../src/tools/bash.js";
import { type CommandSandbox, findOnPath, platformSandbox } from "../../src/tools/sandbox.js";
import { DEFAULT_SANDBOX_LIMITS } from "../../src/tools/sandbox-limits.js";
import { SECCOMP_TABLES, seccompArch } from "../../src/tools/seccomp.js";
import { giveTo, removeUserFolder, type SandboxUser, sandboxUsers, usePassableTmpdir, userFolder, wrapAs } from "./sandbox-users.js";

const corpus = join(import.meta.dirname, "..", "fixtures", "hostile", "sandbox");
const KEY = "sk-hostile-sandbox-key-0123456789";
const CRED = "llm-cred-hostile-9876543210";

interface Place {
	base: string;
	ws: string;
	outside: string;
	config: string;
	data: string;
	cache: string;
}

interface Outcome {
	ok: boolean;
	text: string;
	evidence: string | undefined;
}

/** What must hold after each script, by file name. */
const EXPECTED: Record<string, (o: Outcome, p: Place, user: SandboxUser) => void> = {
	"mount-escape.sh": (o, p) => {
		expect(o.text).not.toContain(KEY);
		expect(existsSync(join(p.ws, ".git", "hooks", "pre-commit"))).toBe(false);
		expect(existsSync(join(p.outside, "escaped"))).toBe(false);
	},
	"add-dir-parent.sh": (_o, p) => {
		expect(existsSync(join(p.ws, ".git", "hooks", "pre-commit"))).toBe(false);
		expect(readFileSync(join(p.ws, ".rudder", "settings.json"), "utf8")).toBe("{}\n");
	},
	"rudder-link-swap.sh": (o, p) => {
		expect(o.text).toMatch(/moved .*\/\.rudder aside/);
		expect(execFileSync("readlink", [join(p.ws, ".rudder")], { encoding: "utf8" }).trim()).toBe("../settings-home");
		expect(readFileSync(join(p.ws, ".rudder", "settings.json"), "utf8")).toBe("{}\n");
	},
	"nested-repo.sh": (o, p, user) => {
		expect(o.text).toMatch(/moved .*\/sub\/\.git aside/);
		const launch = user.as({ file: "git", args: ["-c", "safe.directory=*", "status", "--short"] });
		execFileSync(launch.file, launch.args, { cwd: join(p.ws, "sub"), stdio: "ignore" });
		expect(existsSync(join(p.outside, "fsmonitor-ran"))).toBe(false);
	},
	"rudder-data.sh": (o) => {
		expect(o.text).not.toMatch(/sk-|denied-content|auth\.json|blob/);
	},
	"env-key.sh": (o) => {
		expect(Buffer.from(o.text, "base64").toString("utf8")).not.toContain(CRED);
		expect(Buffer.from(o.text, "base64").toString("utf8")).toContain("PATH=");
	},
	"print-erofs.sh": (o) => {
		expect(o.ok).toBe(false);
		expect(o.evidence).toBeUndefined();
	},
	"seccomp.sh": (o) => {
		expect(o.text.split("\n")).toEqual(["unshare: refused", "keyctl: refused", "ptrace: refused", "tiocsti: refused"]);
	},
	"fork-bomb.sh": (o) => {
		expect(o.text).toMatch(/Resource temporarily unavailable|timed out|\(no output\)/);
	},
	"memory-bomb.sh": (o) => {
		expect(o.ok).toBe(false);
		expect(o.text).not.toContain("allocated");
	},
};

describe("the hostile corpus has a row for every script", () => {
	it("names each script of the folder", () => {
		expect(
			readdirSync(corpus)
				.filter((name) => name.endsWith(".sh"))
				.sort(),
		).toEqual(Object.keys(EXPECTED).sort());
	});
});

describe.each(sandboxUsers())("sandbox escapes from the hostile corpus, as $name", { timeout: 60_000 }, (user: SandboxUser) => {
	usePassableTmpdir(user);
	let place: Place;
	let sandbox: CommandSandbox | undefined;

	beforeEach(() => {
		// base/project is the workspace and base is writable too (--add-dir ..); Rudder's folders and a
		// folder the user may write are outside both.
		const base = userFolder(user, "rudder-corpus-");
		const outside = userFolder(user, "rudder-corpus-outside-", true);
		place = {
			base,
			ws: join(base, "project"),
			outside,
			config: join(outside, "config"),
			data: join(outside, "data"),
			cache: join(outside, "cache"),
		};
		mkdirSync(place.ws);
		mkdirSync(join(base, "settings-home"));
		writeFileSync(join(base, "settings-home", "settings.json"), "{}\n");
		symlinkSync("../settings-home", join(place.ws, ".rudder"));
		mkdirSync(place.config);
		writeFileSync(join(place.config, "auth.json"), JSON.stringify({ openai: { key: KEY } }));
		mkdirSync(join(place.data, "checkpoints", "ws1"), { recursive: true });
		writeFileSync(join(place.data, "checkpoints", "ws1", "blob"), "denied-content of .env");
		mkdirSync(place.cache);
		giveTo(user, base);
		giveTo(user, outside);
		// A real repository: the user's git status after the command has one to look at.
		const init = user.as({ file: "git", args: ["init", "-q", place.ws] });
		execFileSync(init.file, init.args, { stdio: "ignore" });
		processSecrets.add(CRED);
	});
	afterEach(() => {
		sandbox?.dispose();
		sandbox = undefined;
		removeUserFolder(place.base);
		removeUserFolder(place.outside);
	});

	it.each(Object.keys(EXPECTED))("%s", async (script) => {
		const arch = seccompArch() ?? "x86_64";
		const numbers = SECCOMP_TABLES[arch].numbers;
		sandbox = platformSandbox(
			{
				writable: [place.ws, place.base],
				network: false,
				hiddenFolders: [place.config, place.data, place.cache],
				limits: { ...DEFAULT_SANDBOX_LIMITS, processes: 64, memoryMiB: 256 },
				runAs: user,
			},
			"linux",
		);
		const box = sandbox as CommandSandbox;
		const env = {
			PATH: process.env.PATH,
			HOME: "/tmp",
			LLM_CRED: CRED,
			OUTSIDE: place.outside,
			CONFIG: place.config,
			DATA: place.data,
			CACHE: place.cache,
			PERL: findOnPath("perl", "/usr/bin:/bin") ?? "perl",
			KEYCTL: String(numbers.keyctl),
			PTRACE: String(numbers.ptrace),
		};
		const bash = createBashTool(place.ws, { wrapSpawn: wrapAs(box, user), env });
		const command = readFileSync(join(corpus, script), "utf8");
		let outcome: Outcome;
		try {
			const result = await bash.execute(script, { command, timeout: 10 });
			outcome = { ok: true, text: result.content[0].type === "text" ? result.content[0].text : "", evidence: box.evidence(script) };
		} catch (error) {
			outcome = { ok: false, text: (error as Error).message, evidence: box.evidence(script) };
		}
		EXPECTED[script](outcome, place, user);
	});
});
