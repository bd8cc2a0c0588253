import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { AccountController } from './account.controller.js';

@Module({ imports: [AuthModule], controllers: [AccountController] })
export class AuthApiModule {}
