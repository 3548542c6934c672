import { Module } from '@nestjs/common';
import { ManagementServer } from './management-server';

/**
 * The management listener as a provider of the service's app (docs/operating.md "The management
 * port"): main.ts starts it, and the app's close closes it.
 */
@Module({ providers: [ManagementServer], exports: [ManagementServer] })
export class ManagementModule {}
