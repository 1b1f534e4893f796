'use strict';
// Placeholder handler: allows, with no opinion. Replaced by the guards.
module.exports = function noop() {
  return { status: 'ok' };
};
