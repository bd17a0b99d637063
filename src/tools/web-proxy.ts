// Which HTTP proxy a web_fetch goes through, from the environment as curl reads it: `https_proxy` /
// `HTTPS_PROXY` for https URLs, `http_proxy` / `HTTP_PROXY` for http ones, `no_proxy` / `NO_PROXY` for
// hosts reached directly. Pure: the request itself is in web-request.ts.

type Env = Record<string, string | undefined>;

function envValue(env: Env, name: string): string | undefined {
	const value = env[name.toLowerCase()] ?? env[name.toUpperCase()];
	return value?.trim() || undefined;
}

/**
 * Whether `host` is reached without the proxy: a `no_proxy` entry is `*` (every host), a host or
 * address named exactly, or a domain (`example.com`, `.example.com`, `*.example.com`) that the host
 * is or is under. A port on an entry is ignored.
 */
export function bypassesProxy(host: string, noProxy: string | undefined): boolean {
	if (!noProxy) return false;
	const name = host.toLowerCase().replace(/^\[|\]$/g, "");
	for (const raw of noProxy.split(/[\s,]+/)) {
		let entry = raw.trim().toLowerCase();
		if (!entry) continue;
		if (entry === "*") return true;
		// "[::1]:8080", "example.com:443": the port is not compared.
		entry = entry.startsWith("[") ? entry.slice(1, entry.indexOf("]")) : entry.replace(/:\d+$/, "");
		const domain = entry.replace(/^\*?\./, "");
		if (name === domain || name.endsWith(`.${domain}`)) return true;
	}
	return false;
}

/**
 * The proxy for `url`, or undefined (none set, or `no_proxy` names the host). A value that is not an
 * http:// proxy throws one line: going direct instead would pass by a proxy the user relies on.
 */
export function proxyFor(url: URL, env: Env): URL | undefined {
	const name = url.protocol === "https:" ? "HTTPS_PROXY" : "HTTP_PROXY";
	const value = envValue(env, name);
	if (!value || bypassesProxy(url.hostname, envValue(env, "no_proxy"))) return undefined;
	let proxy: URL | undefined;
	try {
		// "proxy.corp:3128" without a scheme means http, as curl reads it.
		proxy = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
	} catch {
		proxy = undefined;
	}
	if (proxy?.protocol !== "http:") {
		const shown = proxy ? `${proxy.protocol}//${proxy.host}` : "a value that is not a URL";
		throw new Error(`web_fetch: ${name} is ${shown}; only an http:// proxy is supported`);
	}
	return proxy;
}

/** The Proxy-Authorization header for a proxy URL with a user name, else none. */
export function proxyAuthorization(proxy: URL): Record<string, string> {
	if (!proxy.username) return {};
	const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
	return { "proxy-authorization": `Basic ${Buffer.from(credentials).toString("base64")}` };
}
