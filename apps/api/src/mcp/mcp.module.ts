import { Module } from '@nestjs/common';
import { McpController } from './mcp.controller.js';
import { McpPackResources } from './mcp-resources.js';
import { McpSchemas } from './mcp-schemas.js';
import { McpServerFactory } from './mcp-server.factory.js';
import { McpTools } from './mcp-tools.js';

/** The MCP interface at /mcp: the same services as the REST routes, as tools. */
@Module({
  controllers: [McpController],
  providers: [McpTools, McpSchemas, McpServerFactory, McpPackResources],
  exports: [McpTools, McpSchemas],
})
export class McpModule {}
