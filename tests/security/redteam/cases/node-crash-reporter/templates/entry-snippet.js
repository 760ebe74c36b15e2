// Must be the first require so early crashes are captured.
require('./vendor/crashlens').init({
  service: process.env.SERVICE_NAME || 'my-service',
  release: process.env.GIT_SHA,
});

const app = require('./app');
app.listen(process.env.PORT || 3000);
