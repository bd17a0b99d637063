// `/init`: the prompt that asks the model to look through the repository and write (or improve)
// AGENTS.md, the file every later session reads first. The model writes it with the ordinary write and
// edit tools, so in ask mode the change is shown as a diff to approve like any other.

const INIT_PROMPT = `Please look through this repository and create an AGENTS.md file at its root (or, if one exists, improve it). It is read at the start of every future session by coding agents working here, so it should hold what such an agent needs and cannot quickly guess.

Include:
1. The commands people use: how to install dependencies, build, lint, format, run all tests, and run a single test (check package.json scripts, Makefile, CI workflows and the like for the real commands).
2. The architecture at a high level: the parts of the code and how they fit together, the kind of picture that takes reading several files to see. Do not list every file or folder.
3. Conventions that are specific to this project: code style rules, naming, where tests live and how they are written, anything a reviewer would insist on.

Rules:
- If AGENTS.md exists, read it first and change only what is missing, wrong or out of date; keep what is right.
- Fold in the important parts of any other instruction files (CLAUDE.md, .cursorrules, .cursor/rules/, .github/copilot-instructions.md) and of the README.
- No generic advice ("write clean code", "add tests"), nothing made up, nothing that is obvious from a file name.
- Keep it short and concrete: a reader should be able to act on every line.
- Start the file with:

# AGENTS.md

Guidance for coding agents working in this repository.`;

/** The prompt `/init [focus]` sends; the user's words, if any, say what to pay attention to. */
export function initPrompt(focus = ""): string {
	const extra = focus.trim();
	return extra ? `${INIT_PROMPT}\n\nThe user adds: ${extra}` : INIT_PROMPT;
}
