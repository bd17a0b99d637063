// The shape of one MCP server entry (`mcpServers.<name>` of .mcp.json or a settings file), checked
// before src/extensions/mcp/config.ts expands variables and picks the transport. Own keys only.
import { Type } from "typebox";
import { type Checked, checkFields, type Fields, field } from "./fields.js";

const text = field(Type.String(), "must be a string");

const MCP_SERVER: Fields = {
	type: text,
	command: text,
	args: field(Type.Array(Type.String()), "must be an array of strings"),
	env: { entries: text },
	cwd: text,
	url: text,
	headers: { entries: text },
	timeout: field(Type.Integer({ minimum: 1 }), "must be a positive number of milliseconds"),
};

/** Every shape problem of one server entry at `at` (`mcpServers.gh`), with `value` a null-prototype copy. */
export function checkMcpServerShape(raw: Record<string, unknown>, at: string): Checked {
	return checkFields(raw, MCP_SERVER, "", at, "is not a known field");
}
