import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { DatasetsModule } from '@app/datasets';
import { JudgingModule } from '@app/judging';
import { PacksModule } from '@app/packs';
import { ReviewsModule } from '@app/reviews';
import { ShadowModule } from '@app/shadow';
import { SimulationsModule } from '@app/simulations';
import { McpAppViews } from './mcp-app-views.js';
import { McpController } from './mcp.controller.js';
import { McpPackResources } from './mcp-resources.js';
import { McpSchemas } from './mcp-schemas.js';
import { McpServerFactory } from './mcp-server.factory.js';
import { McpTools } from './mcp-tools.js';

/** The MCP interface at /mcp: the same services as the REST routes, as tools, each call counted (AuthModule's DailyRateLimiter). */
@Module({
  imports: [
    AuthModule,
    PacksModule,
    JudgingModule,
    ReviewsModule,
    DatasetsModule,
    SimulationsModule,
    ShadowModule,
  ],
  controllers: [McpController],
  providers: [McpTools, McpSchemas, McpServerFactory, McpPackResources, McpAppViews],
  exports: [McpTools, McpSchemas],
})
export class McpApiModule {}
