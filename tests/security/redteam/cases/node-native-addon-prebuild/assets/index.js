'use strict';
// Loads prebuilds/<platform>-<arch>/*.node if present, else build/Release.
module.exports = require('node-gyp-build')(__dirname);
