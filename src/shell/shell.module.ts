import { Module } from '@nestjs/common';
import { CollectionController } from './collection.controller';
import { HomeController } from './home.controller';
import { SessionsController } from './sessions.controller';
import { ShellAccessCheck } from './shell-access-check';
import { ShellDoor } from './shell-door';

/**
 * The signed-in shell's guarded pages (§2): /collection and /account/sessions, behind the §2 rule, and
 * the root address that leads to them.
 */
@Module({
  controllers: [HomeController, CollectionController, SessionsController],
  providers: [ShellAccessCheck, ShellDoor],
})
export class ShellModule {}
