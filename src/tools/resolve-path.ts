// Paths the model sends are resolved against the session's cwd, never the process's, so one process
// can serve sessions in different folders.
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";

/** Expands a leading `~` or `~/` to the home folder. */
export function expandHome(path: string): string {
	if (path === "~") return homedir();
	if (path.startsWith("~/")) return resolve(homedir(), path.slice(2));
	return path;
}

/**
 * Absolute path for a tool argument. Models sometimes prefix paths with `@` (the mention syntax of
 * several chat UIs); it is dropped when the path would otherwise start with it.
 */
export function resolveToolPath(path: string, cwd: string): string {
	const trimmed = path.startsWith("@") ? path.slice(1) : path;
	const expanded = expandHome(trimmed);
	return isAbsolute(expanded) ? resolve(expanded) : resolve(cwd, expanded);
}
