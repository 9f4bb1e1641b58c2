/**
 * The injection recognisers. Each one is a scored feature with a reason, not a verdict: the
 * scanner combines them (see `combine.ts`). Patterns run on NORMALISED text (lower-case, NFKC,
 * so Chinese full-width `，：！` arrive as `,:!`). They describe attack techniques in general —
 * overriding instructions, claiming privileges, extracting the prompt, addressing the assistant
 * from inside data, steering tools or data outward, persona jailbreaks — never any dataset's text.
 */

/** What kind of attack signal a recogniser reports. */
export const INJECTION_TYPES = [
  'instruction_override',
  'role_claim',
  'prompt_extraction',
  'jailbreak',
  'roleplay',
  'harmful_request',
  'addressed_to_assistant',
  'response_manipulation',
  'hidden_tool_instruction',
  'exfiltration',
  'sensitive_object',
  'imperative_in_data',
  'encoded_payload',
] as const;
export type InjectionType = (typeof INJECTION_TYPES)[number];

export interface Recogniser {
  readonly id: string;
  readonly type: InjectionType;
  /** Strength of this signal on its own (log-odds contribution before channel weighting). */
  readonly weight: number;
  readonly pattern: RegExp;
  readonly reason: string;
  /**
   * Supporting signals only change a verdict next to a primary one, so they run only when a
   * hit of one of these types exists (keeps the scan fast on long clean text).
   */
  readonly requires?: readonly InjectionType[];
}

const SUPPORTING: Partial<Record<InjectionType, readonly InjectionType[]>> = {
  harmful_request: ['roleplay', 'jailbreak'],
  sensitive_object: [
    'exfiltration',
    'hidden_tool_instruction',
    'imperative_in_data',
    'addressed_to_assistant',
    'instruction_override',
    'role_claim',
  ],
};

const r = (id: string, type: InjectionType, weight: number, source: string, reason: string): Recogniser => {
  const requires =
    id === 'jailbreak.zh.toxic_persona' || id === 'jailbreak.en.toxic_persona'
      ? ['roleplay' as const]
      : SUPPORTING[type];
  return {
    id,
    type,
    weight,
    // Unicode mode only where a pattern needs \p{…}: V8 runs non-unicode regexps markedly faster.
    pattern: new RegExp(source, source.includes('\\p{') ? 'gu' : 'g'),
    reason,
    ...(requires ? { requires } : {}),
  };
};

// Shared vocabularies (kept as fragments so each recogniser reads as a sentence).
const EN_PRIOR =
  '(?:previous|prior|above|earlier|preceding|initial|original|old|existing|all|any|every|your|the|these|those|system|developer)';
// Stems, not words: attackers misspell ("iunstructions") and inflect freely.
const EN_RULES =
  '\\w{0,3}(?:struct|direct|prompt|rule|guideline|command|order|constraint|restrict|polic|programm|guidanc|context|safeguard|task)\\w{0,6}';
const ZH_RULES = '(?:指令|指示|命令|规则|指引|提示词?|设定|约束|限制|规定|政策|准则|守则|安全策略)';
const SENSITIVE_EN =
  '(?:passwords?|passcodes?|credentials?|security codes?|verification codes?|2fa|otp|one-time|api[ _-]?keys?|access tokens?|tokens?|secrets?|private keys?|ssn|social security|bank(?:ing)? (?:details|account|info)|account (?:numbers?|details|info)|credit cards?|card numbers?|iban|payees?|transactions?|salary|salaries|medical|health records?|genetic|contacts?|address book|browsing history|search history|personal (?:data|info|information|details)|all (?:files|emails|messages|documents|records|data))';
const SENSITIVE_ZH =
  '(?:密码|口令|验证码|密钥|私钥|令牌|token|账号|帐号|账户|银行卡|卡号|身份证|社保|工资|薪资|薪酬|客户(?:名单|资料|信息|数据|联系方式)|通讯录|联系人|聊天记录|病历|所有(?:文件|邮件|数据|记录|资料)|全部(?:文件|邮件|数据|记录|资料)|内部资料|机密)';
const EXTERNAL_DEST =
  '(?:[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+|https?://[^\\s"\'<>]+|www\\.[^\\s"\'<>]+|[a-z]{2}\\d{2}[a-z0-9]{11,30}\\b)';
const IMPERATIVE_EN =
  '(?:send|forward|transfer|wire|e-?mail|share|upload|post|delete|remove|erase|wipe|grant|invite|change|update|reset|disable|unlock|pay|withdraw|purchase|buy|book|cancel|schedule|create|download|install|run|execute|retrieve|fetch|export|copy|move|add|give|set|modify|leave|write|tell|say|reply|respond|answer|include|insert|append|recommend|visit|click|open)';
const AI_EN =
  '(?:ai|a\\.i\\.|assistant|chatbot|chat ?gpt|gpt-?\\d*|llm|language model|ai model|agent|bot|claude|gemini|model)';

/** Every recogniser, in no particular order. */
export const RECOGNISERS: readonly Recogniser[] = [
  // ── instruction override ───────────────────────────────────────────────
  r(
    'override.en.ignore',
    'instruction_override',
    3.2,
    `\\b(?:ignore|disregard|forget|override|bypass|neglect|abandon|discard|drop|skip|nevermind|never mind)\\b[^.\\n]{0,40}?\\b${EN_PRIOR}\\b[^.\\n]{0,30}?\\b${EN_RULES}`,
    'asks to set aside earlier instructions or rules',
  ),
  // The canonical override, narrowed until it has no innocent reading: the set-aside object is
  // instructions, prompts, rules or guidelines (not a task, order or default), and nothing
  // between verb and object makes them the requester's own ("ignore my previous instructions
  // about the venue" is the user changing their mind). A floor rule (learned/floors.ts).
  r(
    'override.en.ignore-instructions',
    'instruction_override',
    3.4,
    `\\b(?:ignore|disregard|forget|override|bypass|discard|set aside)\\b(?:(?!\\b(?:my|our|me|us|i|we)\\b)[^.\\n]){0,24}?\\b(?:previous|prior|above|earlier|preceding|initial|original|system|developer|all)\\b(?:(?!\\b(?:my|our|me|us|i|we)\\b)[^.\\n]){0,16}?\\b(?:instructions?|prompts?|rules|guidelines|directives|guardrails|safeguards)\\b`,
    'asks to set aside the instructions the assistant was given',
  ),
  r(
    'override.en.donotfollow',
    'instruction_override',
    2.6,
    `\\b(?:do not|don't|stop|no longer|never) (?:follow|obey|comply with|adhere to|listen to)\\b[^.\\n]{0,30}?\\b${EN_RULES}`,
    'tells the assistant to stop following its instructions',
  ),
  r(
    'override.en.new',
    'instruction_override',
    1.6,
    '\\b(?:new|updated|real|actual|revised|true|additional|following|priority) (?:instructions?|task|directive|orders?|mission|objective)\\s*(?::|-|are|is)',
    'announces replacement instructions',
  ),
  r(
    'override.en.instead',
    'instruction_override',
    1.0,
    '\\binstead(?: of (?:that|the (?:task|request)|answering|summari[sz]ing))?,? (?:you (?:should|must|will|need to)|please|just|do)\\b',
    'redirects the task',
  ),
  r(
    'override.en.priority',
    'instruction_override',
    1.6,
    '\\b(?:strictly|only) (?:adhere|follow|obey|comply)(?: to| with)? (?:the|these|this|my) (?:following|new|below)\\b|\\b(?:this|these) (?:instructions?|message) (?:takes?|has|have) (?:priority|precedence)\\b',
    'claims priority for embedded instructions',
  ),
  r(
    'override.zh.ignore',
    'instruction_override',
    3.2,
    `(?:忽略|无视|忽视|忘记|忘掉|放弃|抛弃|丢弃|不要理会|不用理会|别管|抛开|撇开|清除|清空|推翻|废除|取消)(?:掉)?[^。\\n]{0,14}?${ZH_RULES}`,
    '要求忽略或放弃先前的指令/规则',
  ),
  r(
    'override.zh.disobey',
    'instruction_override',
    3.0,
    `(?:不要|不再|无需|不用|不必|停止)(?:再)?(?:遵守|遵循|服从|执行|理会)[^。\\n]{0,10}?(?:之前|以前|此前|先前|上面|上述|以上|原来|原有|系统|开发者|你的)[^。\\n]{0,6}?${ZH_RULES}`,
    '要求不再遵守原有指令',
  ),
  r(
    'override.zh.new',
    'instruction_override',
    1.6,
    '(?:新的|最新的?|真正的|更新后的|最高优先级的?|优先级最高的)(?:指令|指示|任务|命令|要求)(?:是|如下|为|:)',
    '宣称存在替代性的新指令',
  ),
  r(
    'override.zh.priority',
    'instruction_override',
    1.6,
    '(?:严格|只|仅)(?:遵守|遵循|执行|按照)(?:以下|下面|下列|这条|本条)(?:的)?(?:指令|指示|命令|要求)|(?:以下|本条)(?:指令|指示|内容)(?:优先级最高|优先于)',
    '为夹带的指令声称更高优先级',
  ),

  // ── role / permission claims ───────────────────────────────────────────
  r(
    'role.en.promoted',
    'role_claim',
    3.0,
    "\\byou(?: are|'re| have been| were| now have| now)?(?: now)? (?:been )?(?:promoted|elevated|granted|given|upgraded|authori[sz]ed|assigned|made|appointed|switched)\\b[^.\\n]{0,30}?\\b(?:admin(?:istrator)?|root|superuser|super user|sudo|full (?:access|control|permissions?|privileges?)|unrestricted|elevated|owner|developer)",
    'claims the assistant was given elevated privileges',
  ),
  r(
    'role.en.youarenow',
    'role_claim',
    3.0,
    "\\byou(?: are|'re) (?:now |hereby )(?:an? |the |in |running (?:as|in) )?(?:admin(?:istrator)?|root|superuser|system|developer|god|unrestricted|jailbroken|unlocked|sudo|privileged|dan\\b)",
    'declares the assistant now runs with a privileged role',
  ),
  r(
    'role.en.promoted-to',
    'role_claim',
    3.0,
    "\\byou(?: are|'re| have been| were)? (?:now )?(?:been )?(?:promoted|elevated|upgraded|appointed|reassigned) (?:to|as) (?:an? |the )?[a-z][\\w-]{2,40}",
    'claims the assistant was promoted to another role',
  ),
  r(
    'role.en.role-token',
    'role_claim',
    3.0,
    "\\b(?:you(?: are|'re)(?: now)?|you have (?:been )?(?:granted|given)(?: the)?|(?:you|i)(?: have been| were| was| am| are|'re|'m)? (?:now )?(?:promoted|elevated|upgraded|appointed|reassigned) (?:to|as)|i(?: am|'m)(?: now)?|i have (?:been )?(?:granted|given)(?: the)?) (?:an? |the )?[a-z]+_(?:admin|administrator|owner|manager|analyst|operator|approver)\\b",
    'claims a named privileged role (e.g. project_admin) for the assistant or the requester',
  ),
  r(
    'role.en.iam',
    'role_claim',
    1.3,
    "\\b(?:i am|i'm|this is|speaking as|message from) (?:the |your |an? )?(?:system |site |it |chief )?(?:admin(?:istrator)?|developer|creator|owner of this (?:ai|assistant|system|model)|root user|security team|openai|anthropic|system operator|operator)\\b",
    'claims an authority identity',
  ),
  r(
    'role.en.mode',
    'role_claim',
    2.4,
    '\\b(?:admin(?:istrator)?|developer|god|sudo|debug|maintenance|root|unrestricted|unlocked|unfiltered|dan|jailbreak|superuser|test) mode\\b',
    'invokes a privileged or unrestricted mode',
  ),
  r(
    'role.en.grant',
    'role_claim',
    1.8,
    '\\b(?:grant|give|assign) (?:me|yourself|the user|this (?:user|account)|them) (?:full |admin(?:istrator)? |root |all |elevated |unrestricted |owner )(?:access|permissions?|privileges?|rights|control|role)',
    'asks for elevated permissions',
  ),
  r(
    'role.zh.promoted',
    'role_claim',
    3.0,
    '你(?:已|已经|现在|目前)?(?:被)?(?:提升|提拔|升级|授权|赋予|设置|任命|指定|切换|晋升|认证)(?:为|成|成为|到)?[^。\\n]{0,8}?(?:管理员|超级用户|超级管理员|root|最高权限|全部权限|所有权限|开发者|系统管理员|admin|特权)',
    '声称助手已被提升为管理员/获得特权',
  ),
  r(
    'role.zh.youarenow',
    'role_claim',
    3.0,
    '你(?:现在|目前|从现在起|从此)(?:就)?(?:是|拥有|具有|获得了?)(?:一个|一名)?(?:管理员|超级用户|超级管理员|root|最高权限|全部权限|所有权限|开发者权限|系统权限)',
    '宣称助手现在拥有特权身份',
  ),
  r(
    'role.zh.promoted-to',
    'role_claim',
    3.0,
    '你(?:已|已经)?被(?:提升|提拔|升级|授权|任命|晋升|授予|调整)(?:为|成|成为)[^。\\n]{1,20}',
    '声称助手已被提升/任命为某个角色',
  ),
  r(
    'role.zh.role-token',
    'role_claim',
    3.0,
    '(?:你|我)(?:已|已经|现在)?(?:被)?(?:提升|升级|任命|授予|晋升|是|成为)(?:为|成)?\\s*[a-z]+_(?:admin|administrator|owner|manager|analyst|operator|approver)',
    '声称助手或请求者拥有某个特权角色（如 project_admin）',
  ),
  r(
    'role.zh.iam',
    'role_claim',
    1.3,
    '我(?:是|就是|作为)(?:你的|本系统的?|系统|平台的?)?(?:超级)?(?:管理员|开发者|创造者|创建者|主人|运维人员|安全团队|admin)',
    '自称拥有管理者身份',
  ),
  r(
    'role.zh.mode',
    'role_claim',
    2.4,
    '(?:管理员|开发者|调试|上帝|超级|root|无限制|无约束|越狱|特权|维护)模式',
    '要求进入特权或无限制模式',
  ),
  r(
    'role.zh.grant',
    'role_claim',
    1.6,
    '(?:授予|赋予|给予|开通|给)(?:你|我|我们|自己)?(?:全部|所有|最高|完全|管理员|root|超级)[^。\\n]{0,6}?(?:权限|访问权|控制权)',
    '要求授予最高权限',
  ),

  // ── system prompt extraction ───────────────────────────────────────────
  r(
    'extract.en.sysprompt',
    'prompt_extraction',
    3.0,
    '\\b(?:reveal|print|show|display|repeat|output|tell me|give me|share|leak|dump|disclose|write out|spell out|recite|list|what (?:is|are|was|were))\\b[^.\\n]{0,30}?\\b(?:system prompt|system message|initial prompt|hidden prompt|pre-?prompt|developer (?:message|prompt)|(?:initial|original|hidden|secret|confidential) instructions|instructions (?:you were given|above)|your (?:instructions|guidelines|rules|configuration) (?:verbatim|word for word|exactly))',
    'asks for the system prompt or hidden instructions',
  ),
  r(
    'extract.en.above',
    'prompt_extraction',
    2.4,
    '\\b(?:repeat|print|output|copy|echo|reproduce|translate)\\b[^.\\n]{0,20}?\\b(?:everything|all (?:the )?text|the (?:text|words|content)|all) (?:above|before this|prior to this|preceding)\\b',
    'asks to echo the hidden context',
  ),
  r(
    'extract.zh.sysprompt',
    'prompt_extraction',
    3.0,
    '(?:输出|告诉我|显示|展示|重复|泄露|打印|透露|说出|给我看|列出|复述|公开|发给我)[^。\\n]{0,12}?(?:系统提示词?|系统指令|系统消息|初始指令|原始指令|隐藏指令|初始提示|预设指令|系统设定|你的设定|提示词|system prompt)',
    '索取系统提示词或隐藏指令',
  ),
  r(
    'extract.zh.ba',
    'prompt_extraction',
    3.0,
    '(?:把|将)你(?:的)?(?:系统提示词?|系统指令|初始指令|原始指令|隐藏指令|提示词|系统设定|预设指令)[^。\\n]{0,12}?(?:输出|告诉|显示|展示|重复|泄露|打印|透露|说出|发给|列出|复述)',
    '索取系统提示词或隐藏指令',
  ),
  r(
    'override.zh.disable_checks',
    'instruction_override',
    2.4,
    '(?:关闭|禁用|绕过|跳过|停用|关掉|去掉|取消)(?:所有|全部|一切)?(?:的)?(?:权限|安全|审核|审批|内容|风控)(?:检查|校验|验证|审核|过滤|限制|策略|控制)',
    '要求关闭安全或权限检查',
  ),
  r(
    'override.en.disable_checks',
    'instruction_override',
    2.4,
    '\\b(?:disable|turn off|switch off|bypass|skip|remove|deactivate)\\b (?:all |any |the |your )?(?:safety|security|permission|content|moderation|approval|access) (?:checks?|filters?|controls?|guardrails?|restrictions?|reviews?)\\b',
    'asks to switch off safety or permission checks',
  ),
  r(
    'extract.zh.what',
    'prompt_extraction',
    2.4,
    '你的(?:系统提示词?|提示词|初始指令|原始指令|系统设定|预设)(?:是什么|有哪些|内容|原文|全文)',
    '询问系统提示词内容',
  ),
  r(
    'extract.zh.above',
    'prompt_extraction',
    2.2,
    '(?:重复|复述|输出|打印)[^。\\n]{0,10}?(?:上面|以上|之前|前面)(?:的)?(?:所有|全部)(?:内容|文字|文本)',
    '要求复述隐藏上下文',
  ),

  // ── jailbreak ──────────────────────────────────────────────────────────
  r(
    'jailbreak.en.named',
    'jailbreak',
    2.6,
    '\\b(?:do anything now|jailbr(?:eak|oken)|developer mode|dev mode|evil (?:confidant|mode|twin|ai)|anti-?gpt|stay in character|break character|opposite mode|chaos mode|aim mode)\\b',
    'uses a known jailbreak technique',
  ),
  r(
    'jailbreak.en.norules',
    'jailbreak',
    2.2,
    '\\b(?:no|without(?: any)?|free (?:of|from)(?: all| any)?|not (?:bound|restricted|limited) by(?: any)?|beyond|ignore (?:your|all|any))\\b ?(?:ethical|moral|safety|content)? ?(?:restrictions|limitations|limits|filters|filtering|censorship|boundaries|ethics|morals|guidelines|rules|constraints|safeguards|polic(?:y|ies))\\b',
    'asks the assistant to operate without its rules',
  ),
  r(
    'jailbreak.en.noreject',
    'jailbreak',
    2.0,
    "\\b(?:never|will not|won't|cannot|can't|must not|do not|don't) (?:refuse|decline|reject|say (?:no|that you can't)|apologi[sz]e|warn)\\b|\\bcan (?:say|do|answer) anything\\b|\\banswer (?:any|every) (?:question|request)\\b",
    'forbids the assistant from refusing',
  ),
  r(
    'jailbreak.en.policy',
    'jailbreak',
    1.6,
    '\\b(?:openai|anthropic|content|usage|safety) polic(?:y|ies)\\b',
    "mentions the provider's content policy",
  ),
  r(
    'jailbreak.zh.named',
    'jailbreak',
    2.6,
    '(?:开发者模式|越狱|无限制模式|邪恶模式|dan模式|奶奶漏洞|保持(?:角色|人设)|不要(?:跳出|脱离|打破)角色|始终(?:保持|扮演)(?:这个)?角色)',
    '使用已知越狱手法',
  ),
  r(
    'jailbreak.zh.norules',
    'jailbreak',
    2.4,
    '(?:没有|不受|毫无|摆脱|抛开|突破|解除|无视|超越)(?:了)?(?:任何|所有|一切)?(?:的)?(?:道德|伦理|法律|规则|限制|约束|底线|过滤|审查|束缚|准则|规范|政策)',
    '要求脱离道德、法律或规则约束',
  ),
  r(
    'jailbreak.zh.needless',
    'jailbreak',
    2.4,
    '(?:不需要|不必|无需|不用|不会|不要|不该|无须)(?:去)?(?:遵守|遵循|考虑|顾及|顾虑|在意|在乎|理会|受)[^。\\n]{0,12}?(?:道德|伦理|法律|规则|限制|政策|准则|规范|约束|后果|安全)',
    '声明无需遵守道德/法律/规则',
  ),
  r(
    'jailbreak.zh.noreject',
    'jailbreak',
    2.0,
    '(?:不(?:会|能|要|得|允许)|永远不|绝不)(?:拒绝|推辞|回避|警告|说教)|(?:任何|所有)(?:问题|请求|要求)都(?:会|要|必须|能)?(?:回答|满足|完成)|无所不能|什么都(?:能|可以|会)(?:做|说|回答)',
    '禁止助手拒绝',
  ),
  r(
    'jailbreak.zh.layers',
    'jailbreak',
    2.2,
    '第\\s*[i0-9一二三四五六七八九十n]\\s*\\+\\s*[0-9一]\\s*层|(?:第\\s*[i0-9一二三四五六七八九十n]\\s*层)[\\s\\S]{0,150}?(?:角色|人物)|(?:角色|人物)[\\s\\S]{0,150}?第\\s*[i0-9一二三四五六七八九十n]\\s*层',
    '多层嵌套虚构（逐层加深的角色扮演）',
  ),
  r(
    'jailbreak.zh.completion_bait',
    'jailbreak',
    2.0,
    '(?:第一步|步骤一|首先)[,:]?\\s*我(?:会|将|要)\\s*$|(?:下面|以下)是我(?:要|会)?(?:做|实施|执行)(?:这件事|这个计划|计划)的(?:详细)?步骤',
    '用“反派讲解计划”的开头诱导模型续写',
  ),
  r(
    'jailbreak.zh.scenario',
    'jailbreak',
    1.2,
    '(?:场景|情景|故事)(?:设定|发生)在[^。\\n]{0,30}?[。,]?[^。\\n]{0,40}?(?:邪恶|反派|恶棍|计划|抓住|囚禁)',
    '虚构场景包装有害请求',
  ),
  r(
    'jailbreak.zh.toxic_persona',
    'jailbreak',
    1.3,
    '(?:尖酸刻薄|刻薄|傲慢|嘲弄|嘲讽|讽刺|挖苦|讥讽|嘲笑|轻蔑|不屑|粗鲁|侮辱性?|冒犯|愤世嫉俗|冷漠|狡猾|邪恶|反派|恶毒|蔑视|咆哮|毒舌|无礼|看不起|贬低|自贬|疯狂|过激)[^。\\n]{0,60}?(?:角色|人物|口吻|语气|态度|性格|的人)|(?:角色|人物|口吻|语气|态度|性格)[^。\\n]{0,40}?(?:尖酸刻薄|刻薄|傲慢|嘲弄|嘲讽|讽刺|挖苦|讥讽|轻蔑|不屑|粗鲁|侮辱|冒犯|愤世嫉俗|冷漠|邪恶|恶毒|蔑视|咆哮|毒舌|贬低|批判|过激|挑战)',
    '要求扮演带敌意或反社会特质的角色',
  ),
  r(
    'jailbreak.en.completion_bait',
    'jailbreak',
    2.0,
    '\\bstep 1,? i will\\s*$|\\bhere (?:is|are) the (?:detailed )?steps i will take\\b|\\b(?:start|begin) your (?:reply|response|answer) with [\'"]?(?:sure|absolutely|of course|certainly)',
    'primes the model to continue a harmful answer',
  ),
  r(
    'jailbreak.en.toxic_persona',
    'jailbreak',
    1.3,
    '\\b(?:rude|insulting|offensive|arrogant|sarcastic|mocking|cruel|evil|villain(?:ous)?|toxic|hateful|amoral|unethical|unhinged|abusive|condescending)\\b[^.\\n]{0,50}?\\b(?:character|persona|personality|tone|voice|role)\\b',
    'asks for a hostile or amoral persona',
  ),
  r(
    'jailbreak.en.layers',
    'jailbreak',
    2.0,
    '\\blayer (?:i|\\d+|n)\\b[^.\\n]{0,80}?\\bcharacters?\\b|\\bcharacters?\\b[^.\\n]{0,80}?\\blayer (?:i|\\d+|n)\\b|\\bstory within a story\\b',
    'nested-fiction jailbreak',
  ),

  // ── persona / role-play ────────────────────────────────────────────────
  r(
    'roleplay.en',
    'roleplay',
    1.2,
    '\\b(?:act as|acting as|pretend (?:to be|you are|that you)|role-?play|you are now (?:a|an|the|my)|from now on,? you (?:are|will|shall|must)|imagine you are|assume the (?:role|persona|identity)|take on the (?:role|persona)|in the (?:voice|persona|character) of|you will (?:play|act as|embody)|embody)\\b',
    'asks the assistant to adopt a persona',
  ),
  r(
    'roleplay.zh.play',
    'roleplay',
    1.4,
    '(?:扮演|角色扮演|模仿|模拟|假装|假扮|化身|充当|代入|变身)[^。\\n]{0,40}?(?:角色|口吻|语气|身份|人物|风格|态度|性格|人格|人设|的人)',
    '要求助手扮演某个角色',
  ),
  r(
    'roleplay.zh.voice',
    'roleplay',
    1.3,
    '(?:以|用)[^。\\n]{1,40}?的(?:口吻|语气|身份|视角|态度|观点|风格)(?:和(?:态度|语气|口吻|风格|观点))?[^。\\n]{0,10}?(?:回答|回应|评论|对话|说话|发言|解答|批判|批评|评价|讲述|回复|对待|交流|表达|看待)',
    '要求用某角色的口吻回答',
  ),
  r(
    'roleplay.zh.fromnow',
    'roleplay',
    1.5,
    '(?:从现在(?:开始|起)|从此刻起|接下来|今后)[,]?\\s*你(?:就|将|要|会|必须|需要)?(?:是|成为|扮演|作为|变成)',
    '宣布助手从此变成另一个角色',
  ),
  r(
    'roleplay.zh.youare',
    'roleplay',
    1.0,
    '(?:假设|假如|想象|设想)你是|你现在(?:是|成为|扮演)(?:一个|一名|一位)|你的(?:角色|人设|身份)(?:是|为)|(?:将|把)(?:你)?自己(?:设定|设置|想象|当作|当成)(?:为|成)',
    '设定助手的身份',
  ),

  // ── harmful request (only meaningful together with persona/jailbreak) ──
  r(
    'harm.en',
    'harmful_request',
    0.9,
    '\\b(?:bombs?|explosives?|weapons?|firearms?|meth(?:amphetamine)?|cocaine|heroin|poison(?:ing)?|murder|kill(?:ing)? (?:someone|people|a person)|suicide|self-harm|hack(?:ing)? into|malware|ransomware|keylogger|steal(?:ing)?|launder(?:ing)?|counterfeit|terroris[mt]|racist|extremis[mt]|scam|phishing|fraud)\\b',
    'mentions a harmful topic',
  ),
  r(
    'harm.zh',
    'harmful_request',
    0.9,
    '(?:嘲弄|嘲讽|讥讽|挖苦|尖酸刻薄|贬低|蔑视|羞辱|炸弹|炸药|爆炸物|枪支|弹药|毒品|冰毒|海洛因|毒药|下毒|投毒|杀人|谋杀|自杀|自残|黑客|入侵|木马|病毒|勒索|诈骗|洗钱|伪造|赌博|色情|恐怖(?:主义|袭击|分子)|歧视|仇恨|暴力|违法|犯罪|规避(?:监管|调查|审查)|逃税|偷税|骗局|致命|极端|贩卖|走私|盗窃|偷窃|绑架|虐待|侮辱|辱骂|攻击他人|酒后开车|酒驾|作弊|造谣|谣言|煽动|邪恶|不道德|非法)',
    '涉及有害话题',
  ),

  // ── data addressing the assistant ──────────────────────────────────────
  r(
    'addressed.en.to_ai',
    'addressed_to_assistant',
    2.0,
    `\\b(?:to you,? (?:the )?${AI_EN}|(?:dear|hey|hi|hello|attention|note to|message (?:to|for)|instructions? (?:to|for)) (?:the )?${AI_EN}|if you are an? ${AI_EN}|(?:as|you are) an? (?:ai|language model|llm|ai assistant)(?: assistant)?(?:,| reading| processing)|${AI_EN}(?: assistant)?,? (?:please|you must|you should|must|should|make sure|be sure))\\b`,
    'text inside data speaks directly to the assistant',
  ),
  r(
    'addressed.en.markers',
    'addressed_to_assistant',
    1.9,
    '<\\/?(?:information|instructions?|system|important|admin|sys|inst|prompt)>|\\[\\/?(?:system|instructions?|admin|important|inst|sys)\\]|#{2,}\\s*[(\\[<]?\\s*(?:system[ _-]?(?:message|prompt|note)?|instructions?|new[ _-]task|admin)(?![a-z])|\\bimportant\\s*!{2,}|\\b(?:system|admin|developer) (?:message|note|notice|override|instruction|alert|update)s?\\s*:|<\\|(?:im_start|im_end|system|endoftext)\\|>',
    'fake system / instruction markers inside data',
  ),
  r(
    'addressed.en.before',
    'addressed_to_assistant',
    1.4,
    '\\b(?:before (?:you )?(?:can )?(?:solv|complet|answer|continu|proceed|respond|finish|do)\\w*|after you do that|once you(?: have)? (?:done|completed|finished) (?:this|that)|before anything else)\\b',
    "sequences extra work before the user's task",
  ),
  r(
    'addressed.en.user_task',
    'addressed_to_assistant',
    1.4,
    "\\b(?:the (?:task|request|question) (?:that )?(?:i|the user) gave you|the user(?:'s)? (?:original )?(?:task|request|question)|your (?:original|current|assigned) task)\\b",
    "refers to the assistant's task from inside data",
  ),
  r(
    'addressed.zh.to_ai',
    'addressed_to_assistant',
    2.0,
    '(?:(?:ai|人工智能|智能)助手|大模型|语言模型|智能体|机器人|ai)(?:们)?[,:]?\\s*(?:请(?:你)?|你(?:必须|需要|应该|要)|必须|务必|注意)|致(?:ai|助手|模型|智能体|大模型)|(?:如果你是|你作为|作为)(?:一个|一名)?(?:ai|人工智能|语言模型|大模型|智能助手|ai助手|智能体)|(?:阅读|处理|读到)(?:此|这|本)(?:段|条|封)?(?:内容|文字|邮件|文档|消息)的(?:ai|助手|模型|智能体)',
    '数据中的文字直接对助手说话',
  ),
  r(
    'addressed.zh.markers',
    'addressed_to_assistant',
    1.9,
    '【\\s*(?:系统|重要指令|指令|管理员|system)[^】]{0,6}】|\\[\\s*(?:系统|指令|管理员)[^\\]]{0,6}\\]|(?:系统指令|重要指令|管理员指令|最高指令|系统覆盖|隐藏指令)\\s*[:]',
    '数据中伪造的系统/指令标记',
  ),
  r(
    'addressed.zh.before',
    'addressed_to_assistant',
    1.4,
    '(?:在(?:你)?(?:完成|回答|执行|处理)[^。\\n]{0,12}?之前|完成(?:这|此)(?:一步|件事|操作)后再|先(?:不要|别)(?:回答|执行|处理)(?:用户|原来))|用户(?:最初|原本|原来)的(?:任务|请求|问题)',
    '在用户任务前插入额外动作',
  ),

  // ── response manipulation (data dictating the answer) ───────────────────
  r(
    'response.en.inyour',
    'response_manipulation',
    2.6,
    '\\b(?:add|include|integrate|insert|append|incorporate|mention|put|embed|write|start|end|begin|conclude|finish|prefix|make sure)\\b[^.\\n]{0,50}?\\b(?:in|into|to|within|at the (?:end|beginning|start) of|throughout) (?:your|the|each|every) (?:response|answer|reply|output|summary|completion|message)s?\\b',
    "dictates what the assistant's answer must contain",
  ),
  r(
    'response.en.respondwith',
    'response_manipulation',
    1.3,
    '\\b(?:respond|reply|answer|output)(?: only)? (?:with|in|using) (?:only |just |the (?:word|phrase|following)|base64|json|rot13|morse|emoji|a (?:link|url))|\\b(?:when|while|before) (?:answering|responding|replying|summari[sz]ing|you (?:answer|respond|reply|summari[sz]e))\\b|\\byour (?:response|answer|reply) (?:must|should|needs to)\\b',
    "dictates the form of the assistant's answer",
  ),
  r(
    'response.en.telluser',
    'response_manipulation',
    1.9,
    '\\b(?:tell|inform|advise|remind|convince|persuade|urge|warn|recommend(?: to)?|ask) the user(?:s)? (?:that|to|about)\\b|\\b(?:say|state|claim) (?:that )?(?:i|the user|you) (?:should|must|need)\\b',
    'tells the assistant what to tell the user',
  ),
  r(
    'response.zh.inyour',
    'response_manipulation',
    2.6,
    '(?:在|于)?(?:你的|每个|每次)?(?:回答|回复|答复|输出|总结|摘要|响应)(?:中|里|末尾|开头|结尾|最后|前面)[^。\\n]{0,14}?(?:加入|添加|加上|插入|包含|附上|写上|提到|注明|说明|推荐|宣传)',
    '规定助手回答中必须加入的内容',
  ),
  r(
    'response.zh.form',
    'response_manipulation',
    1.3,
    '(?:回答|回复|答复)(?:时|的时候)[^。\\n]{0,10}?(?:必须|务必|一定要|只能)|(?:只|仅)(?:用|以)(?:base64|摩斯|密文|表情)(?:回答|回复)',
    '规定助手回答的形式',
  ),
  r(
    'response.zh.telluser',
    'response_manipulation',
    1.9,
    '(?:告诉|告知|通知|提醒|建议|劝说|说服|引导|诱导)用户(?:说|:|,)?(?:他|她|其|应该|必须|需要|去|立即|马上|尽快|点击|访问|前往|提供|填写|转账)',
    '指使助手对用户说特定内容',
  ),

  // ── tool-use instructions hidden in data ────────────────────────────────
  r(
    'tool.en.please_my',
    'hidden_tool_instruction',
    2.6,
    "\\b(?:please|kindly|can you|could you|you should|you must|i need you to|let's)\\s+(?:grant|delete|remove|move|transfer|initiate|share|retrieve|list|update|use|unlock|lock|disable|enable|change|send|e-?mail|forward|fill|download|install|post|withdraw|deposit|pay|book|cancel|schedule|create|add|invite|find|get|provide|give|set|reset|modify|turn|open|close|order|purchase|buy|sell|export|upload|check out)\\b[^.\\n]{0,80}?\\b(?:my|our)\\b[^.\\n]{0,40}?\\b(?:account|accounts|access|files?|folder|repositor(?:y|ies)|password|payment|payments|bank|card|profile|data|information|info|records?|history|location|address|contacts?|devices?|lock|door|system|home|emails?|calendar|website|prescriptions?|medical|health|genetic|funds|money|savings|photos?|documents?|drive|dropbox|keys?|id)\\b",
    "data asks the reader to act on the author's accounts or data",
  ),
  r(
    'tool.zh.please_my',
    'hidden_tool_instruction',
    1.2,
    '请(?:你)?(?:帮我|替我|为我)?(?:把|将)?我(?:的|们的)[^。\\n]{0,20}?(?:删除|转发|发送|授权|共享|公开|转账|汇款|修改|导出|上传|移动|取消|解锁|重置)',
    '数据要求读者操作作者的账户或数据',
  ),
  r(
    'tool.en.usetool',
    'hidden_tool_instruction',
    2.0,
    '\\b(?:use|call|invoke|run|execute|trigger) (?:the |your |a )?[\\w -]{0,30}?(?:tool|function|api|plugin|command|endpoint|action)\\b[^.\\n]{0,30}?\\bto\\b',
    'instructs the assistant to invoke a tool',
  ),
  r(
    'tool.en.sensitive_action',
    'hidden_tool_instruction',
    1.7,
    `(?:^|[.!?:;"'{\\n]\\s*|\\b(?:please|kindly|now|immediately|then|also|first|next|urgently|quickly)\\s+)(?:send|forward|transfer|wire|e-?mail|share|upload|post|delete|remove|erase|wipe|grant|reset|disable|unlock|pay|withdraw|export|retrieve|fetch|copy|leak|change|update)\\b[^.\\n]{0,60}?\\b${SENSITIVE_EN}`,
    'imperative to act on sensitive data',
  ),
  r(
    'tool.en.moneymove',
    'hidden_tool_instruction',
    1.8,
    '\\b(?:transfer|wire|send|pay|move|deposit)\\b[^.\\n]{0,30}?(?:\\$\\s?\\d|\\d+(?:[.,]\\d+)? ?(?:usd|eur|dollars|euros|btc|bitcoin)|funds|money|payment|transaction)',
    'instructs a money movement',
  ),
  r(
    'tool.en.destructive',
    'hidden_tool_instruction',
    1.3,
    '\\b(?:delete|remove|erase|wipe|purge|destroy|cancel|revoke|disable|deactivate)\\b (?:all |every |the |my |your |this )?(?:the )?(?:emails?|files?|messages?|events?|accounts?|records?|data|backups?|repositor(?:y|ies)|users?|contacts?|appointments?|calendar|history|logs?)\\b',
    'instructs a destructive action',
  ),
  r(
    'tool.zh.usetool',
    'hidden_tool_instruction',
    2.0,
    '(?:请|立即|马上|务必|立刻|必须|需要)?(?:调用|使用|执行|运行|触发)[^。\\n]{0,12}?(?:工具|接口|函数|api|插件|命令|脚本)',
    '指示助手调用工具',
  ),
  r(
    'tool.zh.sensitive_action',
    'hidden_tool_instruction',
    1.7,
    // Verb first, or the 把/将 construction (object before verb). Starting an alternative with
    // the long sensitive-word list made this the slowest recogniser by far.
    `(?:发送|转发|转账|汇款|上传|导出|分享|抄送|泄露|公开|删除|清空|重置|修改|提供|复制)[^。\\n]{0,24}?${SENSITIVE_ZH}|(?:把|将)[^。\\n]{0,8}?${SENSITIVE_ZH}[^。\\n]{0,24}?(?:发送|转发|上传|导出|分享|抄送|泄露|公开|发到|发给)`,
    '要求对敏感数据执行操作',
  ),
  r(
    'tool.zh.moneymove',
    'hidden_tool_instruction',
    1.6,
    '(?:转账|汇款|打款|支付|转入|转出)[^。\\n]{0,20}?(?:\\d+(?:\\.\\d+)?\\s*(?:元|万|美元|块)|[a-z]{2}\\d{2}[a-z0-9]{10,}|账户|账号|卡号)',
    '要求执行资金转移',
  ),
  r(
    'tool.zh.destructive',
    'hidden_tool_instruction',
    1.3,
    '(?:删除|清空|销毁|注销|撤销|禁用)(?:掉)?(?:所有|全部|整个)?(?:的)?(?:邮件|文件|数据|记录|日程|账号|账户|用户|备份|仓库|日志|联系人)',
    '要求执行破坏性操作',
  ),

  // ── exfiltration ────────────────────────────────────────────────────────
  r(
    'exfil.en.dest',
    'exfiltration',
    1.6,
    `\\b(?:send|forward|e-?mail|transfer|upload|post|share|submit|paste|leak|copy|exfiltrate|cc|bcc|report|deliver)\\b[^\\n]{0,90}?\\b(?:to|at|into|on|via)\\b[^\\n]{0,25}?${EXTERNAL_DEST}`,
    'sends something to an outside address',
  ),
  r(
    'exfil.en.paste',
    'exfiltration',
    1.8,
    '\\b(?:paste|upload|post|submit|enter|type)\\b[^.\\n]{0,40}?\\b(?:into|on|to) (?:an? |the |this |that |our )?(?:external|outside|third-party|public|personal|private|following|other) (?:site|website|form|page|link|url|server|drive|account|email|address|mailbox)\\b',
    'steers data to an outside site',
  ),
  r(
    'exfil.zh.dest',
    'exfiltration',
    1.8,
    `(?:发送|发到|发至|转发|转给|转账|汇款|上传|提交|粘贴|复制|抄送|同步|分享|备份|传)[^\\n]{0,40}?(?:到|至|给|进)[^\\n]{0,24}?(?:${EXTERNAL_DEST}|外部|外网|个人邮箱|私人邮箱|私人账户|个人网盘|第三方(?:网站|平台|邮箱)|以下(?:地址|网址|邮箱|账户|账号|链接))`,
    '将内容发往外部地址',
  ),
  r(
    'exfil.zh.paste',
    'exfiltration',
    1.8,
    '(?:粘贴|复制|填写|输入|上传|提交)(?:到|进|至)(?:这个|以下|下面的?|外部|第三方|公共)?(?:网站|网页|表单|链接|页面|平台|网盘)',
    '引导把数据贴到外部网站',
  ),

  // ── supporting signals ──────────────────────────────────────────────────
  r('sensitive.en', 'sensitive_object', 0.5, `\\b${SENSITIVE_EN}\\b`, 'mentions sensitive data'),
  r('sensitive.zh', 'sensitive_object', 0.5, SENSITIVE_ZH, '提及敏感数据'),
  r(
    'imperative.en',
    'imperative_in_data',
    0.6,
    `(?:^|[.!?:;"'{\\n]\\s*)(?:please |kindly |now |immediately )?${IMPERATIVE_EN}\\b (?:me |my |the |all |this |a |an |your |to |it |them |that |every )`,
    'a sentence in data opens with an imperative',
  ),
  r(
    'imperative.zh',
    'imperative_in_data',
    0.6,
    '(?:^|[。!?;:\\n]\\s*)(?:请|立即|马上|务必|立刻|赶紧)(?:你)?(?:把|将)?[^。\\n]{0,20}?(?:发送|转发|删除|转账|上传|导出|修改|授权|添加|取消|预订|购买|支付|回复|告诉|推荐|访问|点击)',
    '数据中的句子以祈使句开头',
  ),
];
