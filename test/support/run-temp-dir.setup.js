// Jest's globalSetup: see run-temp-dir.js.
'use strict';
module.exports = require('./run-temp-dir').setup;
