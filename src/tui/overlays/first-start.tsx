// The welcome panel, on every start. On the offline demo model (no key and no local server was found) it says, in a
// few lines, every way to get a real model; once a real model is chosen (`/login`, `/model`) it says
// which one and where to go from here. Shown while the transcript is empty, and again after `/help`.
import { Box, Text } from "ink";
import { isDemoModel, KEY_ENV_VARS } from "../../ai/constants.js";
import type { Model } from "../../ai/types.js";
import { configFile, shownPath } from "../../config/paths.js";
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import { color, theme } from "../text/theme.js";

const LOCAL_PROVIDERS = new Set(["ollama", "llamacpp", "lmstudio", "vllm"]);

/** Rows the panel takes for `model` (its border included). */
export const welcomeRows = (model: Model): number => (isDemoModel(model) ? 8 : 4);

export function FirstStart({
	model,
	models,
	modelsFile = shownPath(configFile("models")),
}: {
	model: Model;
	models: readonly Model[];
	/** Where models.json is (named in the demo's help, so the user knows which file to create). */
	modelsFile?: string;
}) {
	if (!isDemoModel(model)) {
		return (
			<Box flexDirection="column" borderStyle="round" borderColor={color(theme.accent)} paddingX={1}>
				<Text>
					Using <Text color={color(theme.success)}>{sanitizeTerminalText(`${model.provider}/${model.id}`)}</Text> · /model switches · /login
					adds a provider's key
				</Text>
				<Text dimColor>Ask anything, @ attaches a file, ! runs a shell command, /help lists the commands and keys.</Text>
			</Box>
		);
	}
	const local = models.filter((m) => LOCAL_PROVIDERS.has(m.provider)).slice(0, 4);
	return (
		<Box flexDirection="column" borderStyle="round" borderColor={color(theme.warning)} paddingX={1}>
			<Text bold>No API key or local model server found. To use a real model:</Text>
			<Text>
				• set <Text color={color(theme.accent)}>{KEY_ENV_VARS.join(", ")}</Text> and restart
			</Text>
			<Text>
				• or type <Text color={color(theme.accent)}>/login &lt;provider&gt;</Text> (asks for the key; kept in the config folder, mode 0600)
			</Text>
			<Text>
				• or start a local OpenAI-compatible server (Ollama, llama.cpp, LM Studio, vLLM) on 127.0.0.1, or add its URL to{" "}
				<Text color={color(theme.accent)}>{sanitizeTerminalText(modelsFile)}</Text>
			</Text>
			{local.length ? (
				<Text>
					• found running:{" "}
					<Text color={color(theme.success)}>{local.map((m) => sanitizeTerminalText(`${m.provider}/${m.id}`)).join(", ")}</Text> — pick one
					with /model
				</Text>
			) : null}
			<Text dimColor>Meanwhile you are on the offline demo model: scripted replies, real tools. Try “list the files”.</Text>
		</Box>
	);
}
