import { Module } from '@nestjs/common';
import { DemoBrandController } from './demo-brand.controller';

/** A stand-in brand site (local and dev only: app.module.ts leaves it out elsewhere). */
@Module({ controllers: [DemoBrandController] })
export class DemoModule {}
