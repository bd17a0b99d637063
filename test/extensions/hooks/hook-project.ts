// A temporary home and project for hook tests: settings files laid out in one line each, executable
// scripts written into the project, and everything removed afterwards.
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HookCommand } from "../../../src/extensions/hooks/types.js";
import { putFile } from "../../helpers/put-file.js";

export interface HookProject {
	root: string;
	home: string;
	cwd: string;
	/** HOME (for ~/.claude) and RUDDER_HOME (settings, data) inside `root`. */
	env: Record<string, string>;
	/** Writes an executable script into the project; returns its path. */
	script(relative: string, text: string): string;
	/** Writes a settings file with this `hooks` value. */
	settings(file: string, hooks: unknown): void;
	cleanup(): void;
}

export function hookProject(): HookProject {
	const root = mkdtempSync(join(tmpdir(), "rudder-hooks-"));
	const home = join(root, "home");
	const cwd = join(root, "project");
	mkdirSync(home, { recursive: true });
	mkdirSync(cwd, { recursive: true });
	const env = { HOME: home, RUDDER_HOME: join(home, ".rudder-home"), PATH: process.env.PATH ?? "/usr/bin:/bin" };
	return {
		root,
		home,
		cwd,
		env,
		script(relative, text) {
			const path = join(cwd, relative);
			putFile(path, text);
			chmodSync(path, 0o755);
			return path;
		},
		settings(file, hooks) {
			putFile(file, JSON.stringify({ hooks }, null, 2));
		},
		cleanup: () => rmSync(root, { recursive: true, force: true }),
	};
}

/** One command hook entry, as a settings file holds it. */
export function commandHook(command: string, timeout?: number): Record<string, unknown> {
	return timeout === undefined ? { type: "command", command } : { type: "command", command, timeout };
}

/** A HookCommand for tests that do not read files. */
export function hookOf(event: HookCommand["event"], command: string, extra: Partial<HookCommand> = {}): HookCommand {
	return { event, matcher: "", command, timeoutSeconds: 60, file: "/p/.claude/settings.json", project: false, ...extra };
}
