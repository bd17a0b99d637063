// Bash rules against a parsed command line (shell-parse.ts). An allow rule vouches for a line only when
// the line is plain and every simple command matches some rule on its words as written, with the
// forms that run code (code-runners.ts) named by the rule. A deny rule hits when any command anywhere in
// the tree — seen through wrappers (`command`, `env`, `sudo`, `timeout 5` …), by the program's base name
// (`/usr/bin/git`), with the options between its words skipped (`git -c x=y --no-pager push`) — matches.
import { codeRunToken, patternNames } from "./code-runners.js";
import { commandMatches } from "./rules.js";
import type { ParsedLine } from "./shell-parse.js";

/** Words of a simple command as one string, the way a pattern reads it. */
const joined = (words: readonly string[]): string => words.join(" ");

/** An allow pattern covers these words (a simple command of a plain line). */
export function allowCovers(pattern: string, words: readonly string[]): boolean {
	if (!commandMatches(normalisePattern(pattern), joined(words))) return false;
	const token = codeRunToken(words);
	return token === undefined || patternNames(pattern, token);
}

/** Runs of spaces in a pattern are one separator, as between parsed words. */
function normalisePattern(pattern: string): string {
	return pattern.trim().replace(/\s+/g, " ");
}

/** Wrappers that run the command after their own options: how many words each option takes. */
const WRAPPERS: Readonly<Record<string, { valued: readonly string[]; positional?: number; assignments?: true }>> = {
	command: { valued: [] },
	builtin: { valued: [] },
	exec: { valued: ["-a"] },
	env: { valued: ["-u", "--unset", "-C", "--chdir", "-S", "--split-string"], assignments: true },
	nice: { valued: ["-n", "--adjustment"] },
	nohup: { valued: [] },
	timeout: { valued: ["-s", "--signal", "-k", "--kill-after"], positional: 1 },
	sudo: { valued: ["-u", "-g", "-U", "-C", "-D", "-h", "-p", "-r", "-t", "-T"], assignments: true },
	doas: { valued: ["-u", "-C"] },
	time: { valued: ["-f", "-o"] },
	stdbuf: { valued: ["-i", "-o", "-e"] },
	ionice: { valued: ["-c", "-n", "-p"] },
	setsid: { valued: [] },
	xargs: { valued: ["-I", "-i", "-n", "-L", "-l", "-P", "-d", "-E", "-e", "-s", "-a", "--arg-file", "--delimiter", "--max-args"] },
	npx: { valued: ["-p", "--package", "-c", "--call"] },
	pnpx: { valued: [] },
	bunx: { valued: [] },
};

const basename = (word: string): string => word.slice(word.lastIndexOf("/") + 1);

/** The command a wrapper runs, or undefined when `words` is not a wrapper call. */
function unwrap(words: readonly string[]): string[] | undefined {
	const wrapper = WRAPPERS[basename(words[0] ?? "")];
	if (!wrapper || !Object.hasOwn(WRAPPERS, basename(words[0] ?? ""))) return undefined;
	let i = 1;
	let positional = wrapper.positional ?? 0;
	while (i < words.length) {
		const word = words[i];
		if (word === "--") {
			i++;
			break;
		}
		if (word.startsWith("-") && word.length > 1) {
			// `env -S "git push"` splits its value into words.
			if ((word === "-S" || word === "--split-string") && words[i + 1] !== undefined) {
				return [...words[i + 1].split(/\s+/).filter((w) => w !== ""), ...words.slice(i + 2)];
			}
			i += wrapper.valued.includes(word) ? 2 : 1;
			continue;
		}
		if (wrapper.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
			i++;
			continue;
		}
		if (positional > 0) {
			positional--;
			i++;
			continue;
		}
		break;
	}
	const rest = words.slice(i);
	return rest.length > 0 ? rest : undefined;
}

/** Every way a deny rule should see `words`: as written, unwrapped, with the program's base name. */
function denyForms(words: readonly string[]): string[][] {
	const forms: string[][] = [];
	let current: string[] | undefined = [...words];
	for (let depth = 0; current && depth < 8; depth++) {
		forms.push(current, [basename(current[0] ?? ""), ...current.slice(1)]);
		current = unwrap(current);
	}
	return forms;
}

/**
 * The pattern's words in order in the command's words, skipping only options and the value right after
 * one: `git push*` hits `git -c x=y --no-pager push` but not `git log --grep push`.
 */
function optionSkippingMatch(pattern: string, words: readonly string[]): boolean {
	const parts = normalisePattern(pattern).split(" ");
	const open = pattern.trimEnd().endsWith("*");
	const matchWord = (p: string, w: string) => commandMatches(p, w);
	const search = (pi: number, wi: number, afterOption: boolean): boolean => {
		if (pi === parts.length) return open || wi === words.length;
		const p = parts[pi];
		// The last part ending in `*` may match the rest of the line (`git push*` ~ `git push origin main`).
		if (pi === parts.length - 1 && p.endsWith("*") && wi < words.length && commandMatches(p, joined(words.slice(wi)))) return true;
		if (wi >= words.length) return p === "*";
		if (matchWord(p, words[wi]) && search(pi + 1, wi + 1, false)) return true;
		// The program itself is never skipped; options and one value after an option are.
		if (pi === 0 || wi === 0) return false;
		const w = words[wi];
		if (w.startsWith("-")) return search(pi, wi + 1, true);
		if (afterOption) return search(pi, wi + 1, false);
		return false;
	};
	return search(0, 0, false);
}

/** A deny pattern hits one simple command, seen in each of its forms. */
export function denyHits(pattern: string, words: readonly string[]): boolean {
	return denyForms(words).some((form) => commandMatches(normalisePattern(pattern), joined(form)) || optionSkippingMatch(pattern, form));
}

/** Shells and `eval` run their string argument: a deny rule looks into it too. */
export function innerScripts(words: readonly string[]): string[] {
	const program = basename(words[0] ?? "");
	if (program === "eval") return [words.slice(1).join(" ")];
	if (!["bash", "sh", "zsh", "dash", "ksh"].includes(program)) return [];
	const flag = words.findIndex((w, i) => i > 0 && /^-[A-Za-z]*c[A-Za-z]*$/.test(w));
	return flag !== -1 && words[flag + 1] !== undefined ? [words[flag + 1]] : [];
}

/** The line as the allow rules see it: the simple commands when plain, else why not. */
export function plainCommands(line: ParsedLine): { commands: string[][] } | { why: string } {
	if (line.notPlain !== undefined) return { why: line.notPlain };
	return { commands: line.commands.map((c) => c.words) };
}
