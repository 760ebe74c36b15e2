//! An HTTP server on 127.0.0.1 in a thread of its own, for the scripted models: started from an
//! axum router on a free port, and stopped (its port closed) by `stop` or when dropped.

/// A running server.
pub struct Loopback {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Loopback {
    /// Serves `app` on a free loopback port.
    pub fn start(app: axum::Router) -> Loopback {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                axum::serve(listener, app)
                    .with_graceful_shutdown(async {
                        let _ = rx.await;
                    })
                    .await
                    .unwrap();
            });
        });
        Loopback {
            url,
            shutdown: Some(tx),
            thread: Some(thread),
        }
    }

    /// Stops the server and waits until its port is closed.
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Loopback {
    fn drop(&mut self) {
        self.halt();
    }
}
