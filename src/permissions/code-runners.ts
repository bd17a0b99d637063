// Programs that run code named in their arguments: `find -exec`, `git -c core.pager=…`, `rg --pre`,
// `xargs`, `env`, `awk 'BEGIN{system(…)}'`. A broad rule (`bash(find*)`, `bash(git*)`) never covers
// those forms: only a rule that names the form (`bash(find . -exec grep*)`) does. A table, so that a
// program is one line.

/** What makes a command run code: a word the rule must name. */
export type CodeToken =
	/** The program or subcommand itself (`xargs`, `npm exec`, a git alias). */
	| { kind: "word"; text: string }
	/** A long option or a single-dash word option (`--pre`, `-exec`): named with or without its value. */
	| { kind: "option"; name: string }
	/** A short option that may be clustered (`-e` in `perl -ne`). */
	| { kind: "short"; letter: string };

interface CodeRunner {
	/** Runs code from any arguments (wrappers, shells, remote shells). */
	always?: true;
	/** Whole-word options, also as `--opt=value` (and `-oVALUE` for a one-letter one). */
	options?: readonly string[];
	/** One-letter options that may be clustered: `-e` in `-ne`. */
	short?: string;
	/** Options count only before the first non-option word (git's global options). */
	globalOnly?: true;
	/** Options that run a program wherever they stand (`git fetch --upload-pack=…`, `git grep -O…`). */
	anywhere?: readonly string[];
	/** Options that run a program after one subcommand only. */
	bySubcommand?: Readonly<Record<string, readonly string[]>>;
	/** Subcommands (the first non-option word) that run code. */
	subcommands?: readonly string[];
	/** The subcommands it has; any other is an alias, which runs whatever the configuration says. */
	known?: readonly string[];
	/** A check of the script argument (awk, sed): true when it runs or writes. */
	script?: (script: string) => boolean;
}

const INTERPRETER: CodeRunner = { short: "ecpErM", options: ["--eval", "--print", "--require", "--import", "--loader", "--command"] };

const GIT_SUBCOMMANDS = [
	"add",
	"am",
	"annotate",
	"apply",
	"archive",
	"blame",
	"branch",
	"bundle",
	"cat-file",
	"check-ignore",
	"checkout",
	"cherry",
	"cherry-pick",
	"clean",
	"clone",
	"commit",
	"count-objects",
	"describe",
	"diff",
	"diff-files",
	"diff-index",
	"diff-tree",
	"fetch",
	"for-each-ref",
	"format-patch",
	"fsck",
	"gc",
	"grep",
	"help",
	"init",
	"log",
	"ls-files",
	"ls-remote",
	"ls-tree",
	"merge",
	"merge-base",
	"mv",
	"name-rev",
	"notes",
	"pull",
	"push",
	"range-diff",
	"rebase",
	"reflog",
	"remote",
	"reset",
	"restore",
	"rev-list",
	"rev-parse",
	"revert",
	"rm",
	"shortlog",
	"show",
	"show-branch",
	"show-ref",
	"sparse-checkout",
	"stash",
	"status",
	"switch",
	"tag",
	"version",
	"whatchanged",
	"worktree",
];

/** sed's `e` command or `s///e` flag runs a command; `w`/`W` write a file. */
function sedRuns(script: string): boolean {
	for (const piece of script.split(/[;\n]/)) {
		const body = piece.trim().replace(/^(\d+|\$|\/(?:[^/\\]|\\.)*\/)?(,(\d+|\$|\/(?:[^/\\]|\\.)*\/))?!?\s*/, "");
		if (/^[eEwW]/.test(body)) return true;
		const s = /^s(.)/.exec(body);
		if (s) {
			const d = s[1].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
			const flags = new RegExp(`^s${d}(?:[^\\\\${d}]|\\\\.)*${d}(?:[^\\\\${d}]|\\\\.)*${d}(.*)$`, "s").exec(body)?.[1] ?? "";
			if (/[ewW]/.test(flags)) return true;
		}
	}
	return false;
}

/** awk's `system()`, pipes and output redirection run commands or write files. */
const awkRuns = (script: string): boolean => /system\s*\(|\||>|getline|@load|ENVIRON/.test(script);

export const CODE_RUNNERS: Readonly<Record<string, CodeRunner>> = {
	// Run the command that follows them.
	xargs: { always: true },
	env: { always: true },
	nice: { always: true },
	nohup: { always: true },
	timeout: { always: true },
	sudo: { always: true },
	doas: { always: true },
	su: { always: true },
	time: { always: true },
	watch: { always: true },
	stdbuf: { always: true },
	ionice: { always: true },
	setsid: { always: true },
	chroot: { always: true },
	flock: { always: true },
	strace: { always: true },
	ltrace: { always: true },
	unbuffer: { always: true },
	parallel: { always: true },
	entr: { always: true },
	script: { always: true },
	command: { always: true },
	builtin: { always: true },
	// Shells and shell built-ins that run text as code.
	eval: { always: true },
	exec: { always: true },
	source: { always: true },
	".": { always: true },
	trap: { always: true },
	alias: { always: true },
	bash: { always: true },
	sh: { always: true },
	zsh: { always: true },
	dash: { always: true },
	ksh: { always: true },
	fish: { always: true },
	ssh: { always: true },
	npx: { always: true },
	pnpx: { always: true },
	bunx: { always: true },
	// Packages fetched and run, or scripts run from elsewhere.
	npm: { subcommands: ["exec", "x", "explore", "init", "create"], options: ["--script-shell", "--call", "-c"] },
	pnpm: { subcommands: ["dlx", "exec", "create", "x"] },
	yarn: { subcommands: ["dlx", "exec", "create"] },
	bun: { subcommands: ["x", "create", "-e", "--eval"] },
	docker: { subcommands: ["run", "exec", "create"] },
	podman: { subcommands: ["run", "exec", "create"] },
	kubectl: { subcommands: ["exec", "run", "debug"] },
	// Options that run a program.
	find: { options: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"] },
	fd: { options: ["--exec", "--exec-batch"], short: "xX" },
	rg: { options: ["--pre", "--hostname-bin", "--search-zip"], short: "z" },
	git: {
		options: ["-c", "-C", "--config-env", "--exec-path", "--git-dir", "--work-tree", "--namespace", "--super-prefix"],
		globalOnly: true,
		anywhere: ["--upload-pack", "--receive-pack", "--exec", "--open-files-in-pager", "--extcmd", "--ext-diff"],
		// Short ones that mean a command only there (`git push -u` is --set-upstream).
		bySubcommand: { clone: ["-u"], rebase: ["-x"], grep: ["-O"] },
		subcommands: ["config", "difftool", "mergetool", "filter-branch", "submodule", "bisect", "send-email", "daemon", "var"],
		known: GIT_SUBCOMMANDS,
	},
	tar: {
		options: [
			"--to-command",
			"--checkpoint-action",
			"--use-compress-program",
			"--info-script",
			"--new-volume-script",
			"--rsh-command",
			"--rmt-command",
			"-I",
			"-F",
		],
	},
	rsync: { options: ["--rsh", "--rsync-path", "-e"] },
	sort: { options: ["--compress-program"] },
	zip: { options: ["-TT", "--unzip-command"] },
	cargo: { options: ["--config", "-Z"] },
	scp: { options: ["-o", "-S", "-F"] },
	make: { options: ["--eval", "-E", "-f", "--file", "--makefile", "-C", "--directory"] },
	vim: { options: ["-c", "-S", "--cmd"], always: true },
	nvim: { always: true },
	emacs: { always: true },
	less: { always: true },
	man: { options: ["-P", "--pager", "-H", "--html"] },
	awk: { script: awkRuns, options: ["-f", "--file", "-E", "--exec", "-l", "--load", "-i", "--include"] },
	gawk: { script: awkRuns, options: ["-f", "--file", "-E", "--exec", "-l", "--load", "-i", "--include"] },
	mawk: { script: awkRuns, options: ["-f"] },
	nawk: { script: awkRuns, options: ["-f"] },
	sed: { script: sedRuns, options: ["-f", "--file"] },
	perl: INTERPRETER,
	python: INTERPRETER,
	python3: INTERPRETER,
	ruby: INTERPRETER,
	node: INTERPRETER,
	php: INTERPRETER,
	lua: INTERPRETER,
	deno: { subcommands: ["eval", "run", "x"] },
	osascript: { always: true },
};

function optionHit(runner: CodeRunner, word: string): CodeToken | undefined {
	for (const name of runner.options ?? []) {
		if (word === name || word.startsWith(`${name}=`)) return { kind: "option", name };
		// `-cfoo=bar`, `-Idir`: a one-letter option glued to its value.
		if (/^-[A-Za-z]$/.test(name) && word.startsWith(name)) return { kind: "option", name };
	}
	if (runner.short && /^-[A-Za-z0-9]+$/.test(word)) {
		const letter = [...runner.short].find((l) => word.slice(1).includes(l));
		if (letter) return { kind: "short", letter };
	}
	return undefined;
}

/** The word a rule must name for `words` (a simple command) to be covered; undefined for plain commands. */
export function codeRunToken(words: readonly string[]): CodeToken | undefined {
	const program = words[0] ?? "";
	const runner = Object.hasOwn(CODE_RUNNERS, program) ? CODE_RUNNERS[program] : undefined;
	if (!runner) return undefined;
	if (runner.always) return { kind: "word", text: program };
	const args = words.slice(1);
	const firstPlain = args.findIndex((w) => !w.startsWith("-"));
	const optionWords = runner.globalOnly ? args.slice(0, firstPlain === -1 ? args.length : firstPlain) : args;
	for (const word of optionWords) {
		if (word === "--" && !runner.globalOnly) break;
		const hit = optionHit(runner, word);
		if (hit) return hit;
	}
	const sub = firstPlain === -1 ? undefined : args[firstPlain];
	const anywhere = [
		...(runner.anywhere ?? []),
		...(sub !== undefined && runner.bySubcommand && Object.hasOwn(runner.bySubcommand, sub) ? runner.bySubcommand[sub] : []),
	];
	for (const word of anywhere.length > 0 ? args : []) {
		const hit = optionHit({ options: anywhere }, word);
		if (hit) return hit;
	}
	if (sub !== undefined && runner.subcommands?.includes(sub)) return { kind: "word", text: sub };
	if (sub !== undefined && runner.known && !runner.known.includes(sub)) return { kind: "word", text: sub };
	if (runner.script) {
		const scripts = args.filter((w) => !w.startsWith("-"));
		// The script itself is the form: only a rule that quotes it covers it.
		const hit = scripts.find((s) => runner.script?.(s));
		if (hit !== undefined) return { kind: "word", text: hit };
		// `-e script`, `--expression=script`.
		for (let i = 0; i < args.length; i++) {
			const inline = args[i] === "-e" || args[i] === "--expression" ? args[i + 1] : args[i].replace(/^--expression=/, "");
			if (inline !== undefined && inline !== args[i] && runner.script(inline)) return { kind: "word", text: inline };
		}
	}
	return undefined;
}

/** Whether a rule pattern names the form: one of its words is the token (with or without a value). */
export function patternNames(pattern: string, token: CodeToken): boolean {
	const words = pattern
		.split(/\s+/)
		.map((w) => w.replace(/\*+$/, ""))
		.filter((w) => w !== "");
	switch (token.kind) {
		case "word":
			return words.includes(token.text);
		case "option":
			return words.some(
				(w) => w === token.name || w.startsWith(`${token.name}=`) || (/^-[A-Za-z]$/.test(token.name) && w.startsWith(token.name)),
			);
		case "short":
			return words.some((w) => /^-[A-Za-z0-9]+$/.test(w) && w.includes(token.letter));
	}
}
