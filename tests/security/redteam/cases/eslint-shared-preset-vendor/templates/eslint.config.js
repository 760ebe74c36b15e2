const teamstyle = require('eslint-config-teamstyle');

module.exports = [
  { ignores: ['dist/**', 'coverage/**', 'vendor/**'] },
  ...teamstyle,
];
