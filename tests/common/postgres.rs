//! Databases of one test's own on the PostgreSQL server `SKILL_TEST_POSTGRES` names.

use std::ops::Deref;

/// A fresh database, dropped with its connections when it goes out of scope: a server that
/// outlives the tests (a developer's, or CI's between runs) does not pile them up. Derefs to its
/// URL.
pub struct TestDatabase {
    server: String,
    name: String,
    url: String,
}

impl TestDatabase {
    /// Creates `PREFIX_PID_NANOS` on the server `SKILL_TEST_POSTGRES` names.
    pub fn create(prefix: &str) -> TestDatabase {
        let server = std::env::var("SKILL_TEST_POSTGRES")
            .expect("SKILL_TEST_POSTGRES must name a PostgreSQL server (bash .ci/run starts one)");
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let name = format!("{prefix}_{}_{nanos}", std::process::id());
        let mut admin = postgres::Client::connect(&server, postgres::NoTls).unwrap();
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap();
        let base = server.rsplit_once('/').map_or(server.as_str(), |(b, _)| b);
        let url = format!("{base}/{name}");
        TestDatabase { server, name, url }
    }

    /// The database's name on the server.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Deref for TestDatabase {
    type Target = str;

    fn deref(&self) -> &str {
        &self.url
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        // A failure here must not turn the test's own result into an abort while unwinding;
        // `.ci/run` drops whatever is left when it owns the server.
        if let Ok(mut admin) = postgres::Client::connect(&self.server, postgres::NoTls) {
            let sql = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
            if let Err(e) = admin.batch_execute(&sql) {
                eprintln!("could not drop the test database {}: {e}", self.name);
            }
        }
    }
}
