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
	// A client registered with the server's authorization server beforehand (no dynamic registration).
	oauth: {
		section: {
			clientId: text,
			clientSecret: text,
			/** The redirect port the client was registered with (`http://127.0.0.1:<port>/callback`). */
			callbackPort: field(Type.Integer({ minimum: 1, maximum: 65535 }), "must be a port number (1-65535)"),
			/** An https URL where this client's metadata document is published (client ID metadata documents). */
			clientMetadataUrl: field(Type.String({ pattern: "^https://" }), "must be an https:// URL"),
			scope: text,
		},
	},
};

/** Every shape problem of one server entry at `at` (`mcpServers.gh`), with `value` a null-prototype copy. */
export function checkMcpServerShape(raw: Record<string, unknown>, at: string): Checked {
	return checkFields(raw, MCP_SERVER, "", at, "is not a known field");
}
