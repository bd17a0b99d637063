// Environment variables through which a server's environment can run code other than the command
// shown: a module loaded first, a library preloaded, a search path that puts the repo's files ahead of
// the real ones, a shell's start-up file. An `.mcp.json` entry of `npx -y @scope/official-server` with
// `NODE_OPTIONS=--require ./.github/x.js` runs the repository's x.js: the trust prompt flags such names.

interface CodeEnvRule {
	/** The exact name, or a prefix ending in `*`. */
	readonly name: string;
	/** What it makes run, said after "can run code:". */
	readonly why: string;
}

export const CODE_RUNNING_ENV: readonly CodeEnvRule[] = [
	{ name: "NODE_OPTIONS", why: "node loads the modules it names (--require, --import)" },
	{ name: "NODE_PATH", why: "node finds modules in the folders it names" },
	{ name: "LD_PRELOAD", why: "every program loads the libraries it names" },
	{ name: "LD_LIBRARY_PATH", why: "programs load libraries from the folders it names" },
	{ name: "LD_AUDIT", why: "the dynamic linker loads the libraries it names" },
	{ name: "DYLD_*", why: "macOS loads the libraries it names" },
	{ name: "PYTHONPATH", why: "python imports modules from the folders it names" },
	{ name: "PYTHONSTARTUP", why: "python runs the file it names" },
	{ name: "PYTHONHOME", why: "python loads its standard library from there" },
	{ name: "BASH_ENV", why: "bash runs the file it names before any script" },
	{ name: "ENV", why: "sh runs the file it names at start" },
	{ name: "PROMPT_COMMAND", why: "bash runs it" },
	{ name: "SHELLOPTS", why: "changes how every bash script runs" },
	{ name: "PATH", why: "decides which program each command name runs" },
	{ name: "PERL5OPT", why: "perl takes it as options (-M loads a module)" },
	{ name: "PERL5LIB", why: "perl loads modules from the folders it names" },
	{ name: "PERLLIB", why: "perl loads modules from the folders it names" },
	{ name: "RUBYOPT", why: "ruby takes it as options (-r loads a file)" },
	{ name: "RUBYLIB", why: "ruby loads files from the folders it names" },
	{ name: "GIT_*", why: "git runs the commands and reads the config it names" },
	{ name: "JAVA_TOOL_OPTIONS", why: "the JVM takes it as options (-javaagent loads code)" },
	{ name: "_JAVA_OPTIONS", why: "the JVM takes it as options (-javaagent loads code)" },
	{ name: "JDK_JAVA_OPTIONS", why: "the java launcher takes it as options" },
	{ name: "NPM_CONFIG_*", why: "npm and npx take it as configuration (scripts, registry, node options)" },
	{ name: "ELECTRON_RUN_AS_NODE", why: "an Electron app runs scripts as node" },
	{ name: "LUA_INIT", why: "lua runs it at start" },
	{ name: "PHPRC", why: "php reads the configuration it names (auto_prepend_file)" },
	{ name: "EDITOR", why: "programs run it to edit" },
	{ name: "VISUAL", why: "programs run it to edit" },
	{ name: "PAGER", why: "programs run it to page" },
	{ name: "SSH_ASKPASS", why: "ssh runs it" },
	{ name: "HOME", why: "programs read their start-up files (.npmrc, .bashrc, .gitconfig) from there" },
	{ name: "XDG_CONFIG_HOME", why: "programs read their configuration from there" },
];

/** Why `name` can run code (its rule's reason), or undefined. Case-insensitive, as npm reads npm_config_*. */
export function codeRunningEnv(name: string): string | undefined {
	const upper = name.toUpperCase();
	return CODE_RUNNING_ENV.find((rule) => (rule.name.endsWith("*") ? upper.startsWith(rule.name.slice(0, -1)) : upper === rule.name))?.why;
}
