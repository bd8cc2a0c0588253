import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, ErrorBodyDto, type Principal } from '@app/auth';
import { PackService } from '@app/packs';
import {
  AuditSettingsDto,
  CompareQueryDto,
  CreatePackDto,
  ImportPackDto,
  PackComparisonDto,
  PackDto,
  PackExportDto,
  PackListItemDto,
  PackVersionDocumentDto,
  PackVersionDto,
  UpdatePackDto,
} from './packs.dto.js';

const NOT_FOUND = {
  description: "`pack not found` (missing, deleted, or another user's)",
  type: ErrorBodyDto,
};

@ApiTags('packs')
@Controller('api/packs')
export class PacksController {
  constructor(private readonly packs: PackService) {}

  @Get()
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({ summary: 'List your packs, newest first' })
  @ApiOkResponse({ type: [PackListItemDto] })
  list(@CurrentPrincipal() principal: Principal): Promise<PackListItemDto[]> {
    return this.packs.list(principal.userId);
  }

  @Post()
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({ summary: 'Create a pack (draft only; an absent document means no questions)' })
  @ApiCreatedResponse({ type: PackDto })
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreatePackDto): Promise<PackDto> {
    return this.packs.create(principal.userId, body.name, body.document);
  }

  @Post('import')
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({ summary: 'Create a pack from an export (`{name, document}`)' })
  @ApiCreatedResponse({ type: PackDto })
  import(@CurrentPrincipal() principal: Principal, @Body() body: ImportPackDto): Promise<PackDto> {
    return this.packs.create(principal.userId, body.name, body.document);
  }

  @Get(':packId')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({ summary: 'Read a pack: the draft `document` and the published `liveDocument`' })
  @ApiOkResponse({ type: PackDto })
  @ApiNotFoundResponse(NOT_FOUND)
  get(@CurrentPrincipal() principal: Principal, @Param('packId') packId: string): Promise<PackDto> {
    return this.packs.get(principal.userId, packId);
  }

  @Patch(':packId')
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({ summary: 'Edit the name and/or the draft document (the live version never changes here)' })
  @ApiOkResponse({ type: PackDto })
  @ApiNotFoundResponse(NOT_FOUND)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
    @Body() body: UpdatePackDto,
  ): Promise<PackDto> {
    return this.packs.update(principal.userId, packId, body);
  }

  @Post(':packId/publish')
  @HttpCode(200)
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({
    summary: 'Publish the draft',
    description: [
      'Freezes the current draft as the live version (`liveVersionId` becomes the old `draftVersionId`) and opens a new draft version with a new id holding the same document. The draft is validated again first.',
      '',
      'A draft with no questions is refused: 400 `invalid request` with an issue at `questions` (judging it could only give `invalid_pack`).',
      '',
      "A draft identical to the live version (`unpublishedChanges: false` on the pack) is **not** refused: it is published as a new version, as before, so scripts that publish on every deploy keep working. Such a version changes nothing for judging, and calibration, which counts the live version's labels, starts again from none; the web app therefore does not offer it (its Publish button is disabled while `unpublishedChanges` is false). Check `unpublishedChanges` before publishing to avoid it.",
    ].join('\n'),
  })
  @ApiOkResponse({ type: PackDto })
  @ApiBadRequestResponse({
    description:
      '`invalid request`: the draft fails the document check, or has no questions (an issue at `questions`)',
    type: ErrorBodyDto,
  })
  @ApiNotFoundResponse(NOT_FOUND)
  publish(@CurrentPrincipal() principal: Principal, @Param('packId') packId: string): Promise<PackDto> {
    return this.packs.publish(principal.userId, packId);
  }

  @Delete(':packId')
  @HttpCode(204)
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({
    summary: 'Delete a pack: gone for every pack route and for judging; its evaluations stay readable',
  })
  @ApiNoContentResponse()
  @ApiNotFoundResponse(NOT_FOUND)
  delete(@CurrentPrincipal() principal: Principal, @Param('packId') packId: string): Promise<void> {
    return this.packs.delete(principal.userId, packId);
  }

  @Get(':packId/export')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({ summary: 'Export the pack (name and draft document), ready for import' })
  @ApiOkResponse({ type: PackExportDto })
  @ApiNotFoundResponse(NOT_FOUND)
  export(@CurrentPrincipal() principal: Principal, @Param('packId') packId: string): Promise<PackExportDto> {
    return this.packs.export(principal.userId, packId);
  }

  @Get(':packId/versions')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({ summary: 'The versions of a pack, newest first (the draft has `publishedAt` null)' })
  @ApiOkResponse({ type: [PackVersionDto] })
  @ApiNotFoundResponse(NOT_FOUND)
  versions(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
  ): Promise<PackVersionDto[]> {
    return this.packs.versions(principal.userId, packId);
  }

  @Get(':packId/versions/:versionId')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({
    summary: 'One version of a pack with its document (the draft, the live one or an earlier one)',
  })
  @ApiOkResponse({ type: PackVersionDocumentDto })
  @ApiNotFoundResponse({
    description: '`pack not found`, or `version not found` when the id is not a version of this pack',
    type: ErrorBodyDto,
  })
  version(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
    @Param('versionId') versionId: string,
  ): Promise<PackVersionDocumentDto> {
    return this.packs.version(principal.userId, packId, versionId);
  }

  @Post(':packId/versions/:versionId/restore')
  @HttpCode(200)
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({
    summary: 'Restore a version into the draft (rollback)',
    description:
      "Replaces the draft's document with this version's (any version of the pack: an earlier one, the live one or the draft itself), in place, as `PATCH` with that document would: `draftVersionId` stays, the live version is not touched and nothing is published. Publish afterwards to make it live. The document is checked again (400 `invalid request` with `issues` when a rule tightened since). Answers the pack.",
  })
  @ApiOkResponse({ type: PackDto })
  @ApiBadRequestResponse({
    description: '`invalid request`: the version fails the current document check',
    type: ErrorBodyDto,
  })
  @ApiNotFoundResponse({
    description: '`pack not found`, or `version not found` when the id is not a version of this pack',
    type: ErrorBodyDto,
  })
  restore(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
    @Param('versionId') versionId: string,
  ): Promise<PackDto> {
    return this.packs.restore(principal.userId, packId, versionId);
  }

  @Get(':packId/compare')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({ summary: 'Compare two versions of this pack by question id' })
  @ApiOkResponse({ type: PackComparisonDto })
  @ApiNotFoundResponse({
    description: '`pack not found`, or `version not found` when `from` or `to` is not a version of this pack',
    type: ErrorBodyDto,
  })
  compare(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
    @Query() query: CompareQueryDto,
  ): Promise<PackComparisonDto> {
    return this.packs.compare(principal.userId, packId, query.from, query.to);
  }

  @Get(':packId/audit')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({
    summary: "The pack's audit sampling settings",
    description:
      'Defaults `{rate: 0, strategy: "uncertainty"}`: the audit is off. See PUT for what they do, and docs/reviews.md ("Audit sampling").',
  })
  @ApiOkResponse({ type: AuditSettingsDto })
  @ApiNotFoundResponse(NOT_FOUND)
  audit(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
  ): Promise<AuditSettingsDto> {
    return this.packs.auditSettings(principal.userId, packId);
  }

  @Put(':packId/audit')
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({
    summary: "Set the pack's audit sampling: the rate and the strategy",
    description: [
      'From now on, each live evaluation of the pack (source `api`, `webhook` or `mcp`; never `playground` nor `simulation`) is drawn for audit when it is stored: it records the probability π it was selected with (`auditProbability`) and whether it was (`auditSelected`), both beside `result` in GET /api/evaluations/{id}. Every estimate made from audit labels can then weight a label by 1/π.',
      '',
      'Selected automatic decisions (`accept`, `reject`) make the audit queue, `GET /api/reviews?queue=audit`, labeled with the label routes. Evaluations in `review` are drawn with the same formula: they are in the review queue anyway, and being selected marks their label as one of the probability sample. Evaluations stored before the change keep their draw (or none).',
      '',
      'Both fields are required; answers the saved settings.',
    ].join('\n'),
  })
  @ApiOkResponse({ type: AuditSettingsDto })
  @ApiBadRequestResponse({
    description:
      '`invalid request` with `issues`: `rate` missing, not a number or outside 0..1; `strategy` missing or unknown; another field',
    type: ErrorBodyDto,
  })
  @ApiNotFoundResponse(NOT_FOUND)
  setAudit(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
    @Body() body: AuditSettingsDto,
  ): Promise<AuditSettingsDto> {
    return this.packs.setAuditSettings(principal.userId, packId, {
      rate: body.rate,
      strategy: body.strategy,
    });
  }
}
