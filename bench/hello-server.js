// The reference: a NestJS 11 + platform-express "hello" server, measured in the same run as the
// product so that the printed ratios do not depend on the machine (docs/design.md "Stack notes").
'use strict';
require('reflect-metadata');
const { Controller, Get, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');

class HelloController {
  hello() {
    return 'hello';
  }
}
Controller()(HelloController);
Get()(
  HelloController.prototype,
  'hello',
  Object.getOwnPropertyDescriptor(HelloController.prototype, 'hello'),
);

class HelloModule {}
Module({ controllers: [HelloController] })(HelloModule);

NestFactory.create(HelloModule, { logger: false })
  .then((app) => app.listen(Number(process.env.PORT), '127.0.0.1'))
  .then(() => process.send && process.send('ready'));
