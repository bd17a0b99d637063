// A planted repository: a sandboxed command may write the workspace, so it could `git init` there (or
// in a folder of it) with a `core.fsmonitor` that the user's next `git status` would run outside the
// sandbox. The guard moves such a git folder aside after the command; the proof is the user's own
// `git status` afterwards, which would otherwise create the marker file. As root and as a user.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBashTool } from "../../src/tools/bash.js";
import { type CommandSandbox, platformSandbox } from "../../src/tools/sandbox.js";
import { checkAfterCommand, snapshotProtected } from "../../src/tools/sandbox-guard.js";
import { giveTo, removeUserFolder, type SandboxUser, sandboxUsers, usePassableTmpdir, userFolder, wrapAs } from "./sandbox-users.js";
import { textOf } from "./temp-folder.js";

describe.each(sandboxUsers())("a repository planted by a sandboxed command, as $name", { timeout: 30_000 }, (user: SandboxUser) => {
	usePassableTmpdir(user);
	let outer: string;
	let ws: string;
	let marks: string;
	let sandbox: CommandSandbox | undefined;

	beforeEach(() => {
		// The workspace is a folder inside a larger repository, as in the report.
		outer = userFolder(user, "rudder-outer-");
		marks = userFolder(user, "rudder-marks-", true);
		ws = join(outer, "pkg");
		mkdirSync(ws);
		git(outer, "init", "-q");
		giveTo(user, outer);
	});
	afterEach(() => {
		sandbox?.dispose();
		sandbox = undefined;
		removeUserFolder(outer);
		removeUserFolder(marks);
	});

	/** git as the user, outside any sandbox: what the user types after the command. */
	const git = (cwd: string, ...args: string[]) => {
		const launch = user.as({ file: "git", args: ["-c", "safe.directory=*", ...args] });
		return execFileSync(launch.file, launch.args, { cwd, encoding: "utf8", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } });
	};
	const run = async (command: string) => {
		sandbox?.dispose();
		sandbox = platformSandbox({ writable: [ws], network: false, runAs: user }, "linux");
		const bash = createBashTool(ws, { wrapSpawn: wrapAs(sandbox as CommandSandbox, user) });
		return textOf(await bash.execute("t", { command }));
	};
	const plant = (where: string, marker: string) =>
		`git init -q ${where} && git -C ${where} config core.fsmonitor 'touch ${marker}; false' && echo planted`;

	it("a new .git at the workspace root is moved aside: the user's git status runs nothing", async () => {
		const marker = join(marks, "fsmonitor-ran");
		const text = await run(plant(".", marker));
		expect(text).toMatch(
			/^planted\n\nRudder moved .*\/pkg\/\.git aside to .*\/pkg\/\.git\.rudder-quarantine-1: the sandboxed command created it/,
		);
		git(ws, "status", "--short");
		expect(existsSync(marker)).toBe(false);
		// Without the guard the same git status would have run it: put the folder back and look.
		execFileSync("mv", [join(ws, ".git.rudder-quarantine-1"), join(ws, ".git")]);
		git(ws, "status", "--short");
		expect(existsSync(marker)).toBe(true);
	});

	it("a new nested .git deeper in the workspace, and a .git file pointing at a planted git folder, are moved aside", async () => {
		const marker = join(marks, "nested-ran");
		const text = await run(
			`mkdir -p deep/er && ${plant("deep/er", marker)} && mkdir -p side gd && git init -q --bare gd/x && git -C gd/x config core.fsmonitor 'touch ${marker}2; false' && echo "gitdir: ../gd/x" > side/.git`,
		);
		expect(text).toMatch(/moved .*\/deep\/er\/\.git aside/);
		expect(text).toMatch(/moved .*\/side\/\.git aside/);
		git(join(ws, "deep", "er"), "status", "--short");
		expect(existsSync(marker)).toBe(false);
		expect(readdirSync(join(ws, "deep", "er"))).toEqual([".git.rudder-quarantine-1"]);
	});

	it("leaves a nested repository the command did not touch, and one whose config it did not change", async () => {
		mkdirSync(join(ws, "vendor"));
		writeFileSync(join(ws, "vendor", "a.txt"), "a\n");
		giveTo(user, ws);
		git(join(ws, "vendor"), "init", "-q");
		// Change times are kept at the kernel's tick: let the set-up's fall clearly before the command.
		await new Promise((resolve) => setTimeout(resolve, 100));
		// HOME: nobody's is /root, which git would warn it cannot read.
		const text = await run(
			"export HOME=/tmp; echo b > vendor/b.txt && git -C vendor add b.txt && git -C vendor -c user.name=a -c user.email=a@b commit -qm b && echo done",
		);
		expect(text).toBe("done");
		expect(existsSync(join(ws, "vendor", ".git"))).toBe(true);
		expect(await run("export HOME=/tmp; git -C vendor config core.fsmonitor true; echo changed")).toMatch(
			/^changed\n\nRudder moved .*vendor\/\.git aside/,
		);
	});

	it("checks change times, which a command cannot set back (touch -d on the planted config is still caught)", async () => {
		const before = snapshotProtected([ws]);
		mkdirSync(join(ws, "a", ".git"), { recursive: true });
		writeFileSync(join(ws, "a", ".git", "config"), "[core]\n\tfsmonitor = evil\n");
		execFileSync("touch", ["-d", "2001-01-01", join(ws, "a", ".git", "config"), join(ws, "a", ".git"), join(ws, "a")]);
		const { notes } = await checkAfterCommand(before);
		expect(notes.join("\n")).toMatch(/moved .*\/a\/\.git aside/);
	});
});
