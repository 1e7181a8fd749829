//! Which requests the GUI server answers: only those a page it served itself can send.
//!
//! A local server is reachable by every web page the user opens: a page on another site can
//! send it requests (cross-site requests), and a hostile DNS name that resolves to 127.0.0.1
//! can make the browser treat the server as part of that site (DNS rebinding). Both are refused
//! here: the `Host` header must name the server itself (its address, `localhost` or
//! `127.0.0.1`, with its port), and an `Origin` header, when present (browsers send one with
//! every `POST` and every cross-site request), must be `http://` and such a host. Engines are
//! never chosen by a request, so even an accepted request cannot run a command.

/// The hosts (`name:port`) the server accepts in `Host`, and as `http://HOST` in `Origin`.
#[derive(Clone, Debug)]
pub struct Guard {
    hosts: Vec<String>,
}

impl Guard {
    /// The guard of a server bound to `address` (an IP address) on `port`.
    pub fn new(address: &str, port: u16) -> Guard {
        let mut hosts = vec![format!("localhost:{port}"), format!("127.0.0.1:{port}")];
        let own =
            if address.contains(':') { format!("[{address}]:{port}") } else { format!("{address}:{port}") };
        if !hosts.contains(&own) {
            hosts.push(own);
        }
        Guard { hosts }
    }

    /// `Ok` when a request with these headers may be answered, else why not.
    pub fn check(&self, host: Option<&str>, origin: Option<&str>) -> Result<(), String> {
        let host = host.ok_or("no Host header")?;
        if !self.hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
            return Err(format!("Host '{host}' is not this server"));
        }
        if let Some(origin) = origin {
            let accepted = origin
                .strip_prefix("http://")
                .is_some_and(|rest| self.hosts.iter().any(|h| h.eq_ignore_ascii_case(rest)));
            if !accepted {
                return Err(format!("Origin '{origin}' is not this server"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_server_itself_is_accepted() {
        let guard = Guard::new("127.0.0.1", 8080);
        assert!(guard.check(Some("127.0.0.1:8080"), None).is_ok());
        assert!(guard.check(Some("localhost:8080"), Some("http://localhost:8080")).is_ok());
        assert!(guard.check(Some("LOCALHOST:8080"), Some("http://127.0.0.1:8080")).is_ok());
        for (host, origin) in [
            (None, None),
            (Some("evil.example:8080"), None),
            (Some("127.0.0.1:9999"), None),
            (Some("127.0.0.1:8080"), Some("http://evil.example")),
            (Some("127.0.0.1:8080"), Some("https://127.0.0.1:8080")),
            (Some("127.0.0.1:8080"), Some("null")),
        ] {
            assert!(guard.check(host, origin).is_err(), "{host:?} {origin:?}");
        }
        let lan = Guard::new("192.168.1.5", 80);
        assert!(lan.check(Some("192.168.1.5:80"), Some("http://192.168.1.5:80")).is_ok());
    }
}
