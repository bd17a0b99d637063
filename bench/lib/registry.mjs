// Every app the bench can run, by the name `--apps=` takes: how to make it, its label and version, the
// packages the bench installs for it, and whether it counts for the CPU bar (the best of pi, Claude Code
// and Codex).
import { piApp, referenceInstalled, rudderApp } from "./apps.mjs";
import { claudeApp, codexApp, geminiApp, installed, REFERENCES } from "./reference-apps.mjs";

const reference = (name, make, extra = {}) => ({
	...REFERENCES[name],
	label: `${REFERENCES[name].label} ${REFERENCES[name].version}`,
	make,
	available: () => installed(name),
	...extra,
});

export const APPS = {
	rudder: { label: "Rudder", make: rudderApp, ours: true, available: () => true },
	pi: {
		label: "pi 0.73.1",
		version: "0.73.1",
		packages: ["@mariozechner/pi-agent-core@0.73.1", "@mariozechner/pi-coding-agent@0.73.1"],
		make: piApp,
		bar: true,
		available: referenceInstalled,
	},
	claude: reference("claude", claudeApp, { bar: true }),
	codex: reference("codex", codexApp, { bar: true }),
	// Not in the bar, and slow: it draws at about one core at 200 tok/s, so it never runs side by side; for
	// the 30-minute budget it runs each cell once and the default matrix leaves out its replies over 30 s.
	gemini: reference("gemini", geminiApp, { alone: true, maxRuns: 1, maxDefaultReplyS: 30 }),
};

export const ALL_APPS = Object.keys(APPS);
