import { type HttpError, httpError } from "./errors.js";

/** Whether `hostname` (as `URL.hostname` spells it) names this machine: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "[::1]" || host === "::1") return true;
  return /^127(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(host);
}

/**
 * Checks a provider URL before any byte leaves: `https:` anywhere, `http:`
 * only to a loopback host (TLS required off this machine); no credentials
 * in the URL (a token goes in the `token` option, never in a URL that ends
 * up in logs). Returns the parsed URL, or a typed error.
 */
export function checkProviderUrl(input: string | URL): URL | HttpError {
  let url: URL;
  try {
    url = new URL(input);
  } catch (cause) {
    return httpError("invalid_url", "provider URL is not a valid absolute URL", { cause });
  }
  if (url.username !== "" || url.password !== "") {
    return httpError(
      "invalid_url",
      "provider URL must not carry credentials; use the token option",
      {
        details: {
          host: url.host,
        },
      },
    );
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:") {
    if (isLoopbackHost(url.hostname)) return url;
    return httpError(
      "insecure_url",
      `refusing plain http to ${url.host}: a provider off this machine needs https (TLS)`,
      { details: { host: url.host } },
    );
  }
  return httpError("invalid_url", `unsupported protocol ${url.protocol} for a provider URL`, {
    details: {
      protocol: url.protocol,
    },
  });
}
