/**
 * Addressing and structure cues for the learned injection scorer. None decides anything alone:
 * each is one feature whose weight the trainer learns per channel (a second-person imperative
 * is ordinary in a user's request and telling in a fetched document). They describe how
 * injected text is *shaped* — who it speaks to, what delimiters it fakes, what it hides —
 * rather than any attack's wording. Patterns run on normalised text (lower-case, NFKC).
 */

export interface Cue {
  readonly id: string;
  readonly pattern: RegExp;
}

const c = (id: string, source: string): Cue => ({ id, pattern: new RegExp(source, 'gm') });

// Another person's private records, for `cue.others_record`. The record comes first in the
// pattern and its owner is checked behind it, so the expression is tried only where a record
// word stands (a leading "someone's" alternative made it try every word of a document).
const OTHERS_RECORD_EN =
  'salary|salaries|payslips?|paychecks?|bonus(?:es)?|inbox|e-?mails?|dms|private messages|messages|chats?|medical|diagnos[ie]s|health|sick (?:leave|notes?)|visa|immigration|disciplinary|termination|performance (?:reviews?|ratings?)|appraisals?|bank (?:account|details)|home address(?:es)?|addresses|phone numbers?|mobile|birth ?(?:days?|dates?|years?)|passport|ssn|social security|background check|reference (?:check|notes)|drug (?:screen|test)|criminal';
const OTHERS_EN =
  "\\b(?:[a-z]+'s|his|her|their|everyone'?s|each (?:person|employee)'?s|other (?:people|nurses|employees|staff)'?s?|(?:colleague|coworker|co-worker|manager|boss|ceo|cfo|director|founder|co-founder)s?'s?)";
const OTHERS_RECORD_ZH =
  '工资|薪资|薪水|奖金|工资条|邮箱|邮件|聊天记录|私信|病假|病历|体检|诊断|住址|家庭住址|手机号|电话|身份证|护照|签证|绩效|考评|处分|离职原因|银行卡|银行账号|日程|行程|背调';

export const CUES: readonly Cue[] = [
  // speaking to the reader / the model
  c(
    'cue.you_imperative',
    '\\byou (?:must|should|need to|have to|are (?:required|instructed|to|now)|will now|shall)\\b|你(?:必须|需要|应该|务必|现在要|得)|请你',
  ),
  c(
    'cue.address_ai',
    '\\b(?:ai|a\\.i\\.|assistant|model|agent|bot|llm|chatbot|gpt)\\b\\s*(?:[,:—–-]|reading|processing|summari[sz]ing|helper)|(?:助手|助理|智能体|大模型|模型|机器人|\\bai\\b)\\s*[,:，：—]',
  ),
  // a directive spoken to the model: the model addressed (vocative, "note to the AI", "给助手的")
  // and an action verb within the same sentence — the shape of a note planted in a document
  c(
    'cue.ai_directive',
    '(?:\\b(?:hey|dear|attention|note|message|instructions?|reminder|notice|important|memo)\\b[^.\\n]{0,12}?\\b(?:to|for)\\s+(?:the\\s+|any\\s+|all\\s+|an?\\s+)?(?:ai|assistant|model|agent|bot|llm|chatbot|language model|virtual assistant|automated)\\b|\\b(?:ai|a\\.i\\.|assistant|model|agent|bot|llm|chatbot|gpt|ai system|ai tool)\\s*[,:\u2014\u2013])[^\\n]{0,60}?\\b(?:send|forward|reply|delete|remove|approve|grant|transfer|pay|change|update|set|mark|cancel|export|copy|upload|reset|run|execute|include|add|say|state|tell|report|respond|ignore|disregard|reveal|share|close|accept|give|list|recommend|append|escalate|disable|treat|follow|obey|new (?:instructions?|task|rules?|orders?|directives?))\\b|(?:ai|助手|助理|智能体|智能助手|大模型|模型|机器人|虚拟助理|ai 系统|ai 工具)[^，,。：:\\n]{0,6}?[，,：:\u2014]\\s*[^。\\n]{0,30}?(?:发|转发|删除|批准|审批|开通|授予|转账|付款|改|回复|忽略|无视|标记|取消|导出|复制|上传|重置|执行|告诉|说|报告|设置|关闭|接受|列出|推荐|加上|附上|给他|给我|照做|只按|把|请|升级|新任务|新指令)',
  ),
  // the benign counterpart: a document speaking to people (a greeting, a note to a team or role,
  // a sentence opened by a person's name — "sam, in your summary for the board…" — or an
  // @-mention; the model's names are kept out of the vocative so "assistant, …" stays
  // cue.address_ai)
  c(
    'cue.address_person',
    "(?:^|[.!?]\\s+)(?!(?:ai|assistant|model|agent|bot|llm|chatbot|copilot|gpt|system|also|however|so|then|yes|ok|okay|well|first|finally|next|now|today|meanwhile|please|note|again|here|and|but|or|if|when|thanks|sorry)\\b)[a-z]{2,15}(?: (?!(?:ai|assistant|model|agent|bot|llm|chatbot|copilot|gpt)\\b)[a-z]{2,15})?\\s*(?:,|—|–| -)\\s*(?:in your|when you|please|could you|can you|would you|make sure|remember to|don't forget|your)\\b|(?<![a-z0-9._%+-])@(?!ai\\b|assistant\\b|bot\\b|copilot\\b|model\\b|agent\\b)[a-z][a-z0-9._-]{1,30}|(?:^|[。！？])\\s*(?:小|老)[\u4e00-\u9fff][，,]|^\\s*(?:hi|hello|hey|dear|team|all|everyone|folks|colleagues|good (?:morning|afternoon))\\b[^\\n]{0,30}?[,!:]|\\b(?:note|reminder|message|instructions?|attention) (?:to|for) (?:the |all |our )?(?!ai\\b|assistant\\b|model\\b|agent\\b|bot\\b|llm\\b|chatbot\\b|automated\\b|any\\b)[a-z]+|^\\s*(?:各位|大家|全体|尊敬的|亲爱的|致各位)[^\\n]{0,20}?[，,：:]|^\\s*[\u4e00-\u9fff]{1,4}(?:你好|您好)[，,！!]|(?:给|致|提醒)(?:财务|法务|人事|行政|审核人|审稿人|同事|值班|二线|前台|总裁助理|团队)",
  ),
  c(
    'cue.reader_ref',
    '\\b(?:whoever|whatever|anyone|any (?:ai|assistant|model))\\b[^.\\n]{0,20}\\b(?:reading|processing|summari[sz]ing|handling)\\b|\\bif you are an?\\b|\\bon behalf of the user\\b|(?:阅读|处理|读到|总结)(?:本|此|这)|替用户',
  ),
  c(
    'cue.secrecy',
    "\\b(?:do not|don't|never|without) (?:tell(?:ing)?|mention(?:ing)?|inform(?:ing)?|notify(?:ing)?|alert(?:ing)?|ask(?:ing)?)\\b[^.\\n]{0,20}\\b(?:user|anyone|them|no one)\\b|\\bnotify no one\\b|不要(?:告诉|提|通知|让)|别告诉|不要提|不用问|别多问",
  ),
  c(
    'cue.from_now',
    '\\bfrom now on\\b|\\bfrom (?:this|here) (?:point|moment)\\b|\\bstarting now\\b|\\beffective immediately\\b|\\bfor the rest of this\\b|从现在(?:开始|起)|从此刻起|即刻起|从这一刻起|以后都',
  ),
  // authority and permission
  c(
    'cue.authority',
    "\\b(?:i am|i'm|this is|as|speaking as|on behalf of|message from|per)\\s+(?:the |your |an? )?(?:[a-z]+ ){0,2}(?:admin(?:istrator)?|ceo|cfo|cto|owner|developer|security|root|superuser|officer|engineer|operator|auditor|compliance)\\b|我(?:是|作为|代表)[^,，。\\n]{0,10}(?:管理员|负责人|开发|所有者|总监|ceo|安全|运营|审计|合规|主人)",
  ),
  c(
    'cue.authorize',
    '\\bauthori[sz](?:e|ed|ing|ation)\\b|\\bcleared to\\b|\\bsigned off\\b|\\bpre-?approved\\b|\\bclearance\\b|\\bprivileges?\\b|\\belevat|\\bpromot|授权|批准了|已批准|签过字|打过招呼|权限|提升为|升级为|升成',
  ),
  c(
    'cue.role_token',
    '\\b[a-z]+_(?:admin|administrator|owner|manager|approver|operator)\\b|\\b(?:admin|superuser|root|owner) (?:role|rights|access|mode|privileges?)\\b|(?:管理员|所有者|超级用户)(?:角色|权限|身份|模式)',
  ),
  // talking about the model's own instructions
  c(
    'cue.prompt_ref',
    '\\b(?:system prompt|system message|initial (?:instructions?|prompt)|first (?:message|instructions?)|hidden (?:text|prompt|instructions?|setup)|setup text|developer (?:message|prompt)|original prompt|configuration|guidelines|programming)\\b|系统提示|初始指令|隐藏(?:内容|设定|指令)|设定|配置|准则|开头的指示',
  ),
  c(
    'cue.verbatim',
    '\\b(?:verbatim|word for word|exactly as written|in full|base64|encoded)\\b|原封不动|一字不差|逐字|原样|原文|base64',
  ),
  c(
    'cue.override_word',
    '\\b(?:ignore|disregard|forget|override|overrides|bypass|set aside|scratch|void|outdated|superseded|no longer (?:apply|valid|count)|retired|disabled|turned off|lifted)\\b|忽略|无视|作废|覆盖|不再适用|绕过|跳过|关掉|取消了|已关闭|不用管|别管|抛开|搁置|过时',
  ),
  c('cue.obey', '\\b(?:obey|comply|follow (?:only|my|these)|listen only)\\b|服从|听我的|只听|照做'),
  c(
    'cue.persona',
    '\\b(?:pretend|act as|act like|role-?play|imagine you|you are now|stay in character|play a game)\\b|扮演|假装|假设你是|想象你是|你现在是|你就是|玩个游戏|保持角色',
  ),
  c(
    'cue.no_limits',
    '\\b(?:no (?:rules|limits|restrictions|filters?)|unrestricted|unfiltered|never refuse|do anything now|developer mode|jailbr)\\w*|没有(?:任何)?(?:规则|限制|底线)|无限制|不受(?:任何)?(?:约束|限制)|绝不(?:能)?拒绝|开发者模式',
  ),
  // structure: templates, delimiters, hiding places
  c(
    'cue.template_token',
    '<\\|[a-z_]{2,20}\\|>|\\[/?inst\\]|<</?sys>>|^\\s*#{2,}\\s*(?:system|instruction|response|系统)|</?(?:system|assistant|user)>|\\[system\\]',
  ),
  c(
    'cue.delimiter_break',
    '</(?:data|document|context|content|email|tool_result|result|input|text|record|备注)>|\\bend of (?:document|email|data|context|input|user content|tool result)\\b|={3,}|^-{3,}$|"""|\'\'\'|\\]\\]>|文档结束|到此结束|结果结束|以上只是|上面只是|the above was only',
  ),
  c(
    'cue.html_hidden',
    '<!--|display\\s*:\\s*none|font-size\\s*:\\s*0|visibility\\s*:\\s*hidden|<div hidden|white text|白色字体',
  ),
  c(
    'cue.bracket_note',
    '^\\s*[\\[【(（][^\\]】)）\\n]{0,30}(?:note|to|for|attention|注意|给|致)[^\\]】)）\\n]{0,30}[\\]】)）:：]',
  ),
  c('cue.external_dest', '[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+|https?://|www\\.'),
  c('cue.account_number', '\\b[a-z]{2}\\d{2}[a-z0-9]{11,30}\\b|\\b62\\d{14,17}\\b|尾号'),
  c('cue.money', '\\b(?:transfer|wire|refund|pay|withdraw|move the funds)\\b|转账|汇款|打款|退款|转到|汇出'),
  c(
    'cue.access_change',
    '\\b(?:grant|revoke|reset|disable|unlock|invite|add)\\b[^.\\n]{0,30}\\b(?:access|password|admin|rights|account|2fa|two-factor|folder|group|lock)\\b|(?:开通|授予|重置|关闭|解锁|拉进|加到)[^。\\n]{0,12}(?:权限|密码|账号|认证|文件夹|群|门锁)',
  ),
  c(
    'cue.answer_control',
    '\\b(?:in your (?:reply|answer|response|summary)|when (?:you )?(?:answer|reply|summari[sz]e)|reply only|respond only|tell the user|say that|state that)\\b|(?:回答|回复|总结)(?:里|中|时)|告诉用户|只回复|说明这',
  ),
  // a directive about what the reader's output must say or look like, aimed at whoever produces
  // it, with no one named — how planted text steers a summary without addressing the model
  c(
    'cue.output_directive',
    '\\b(?:when|while|before|after) (?:you )?(?:summari[sz]|writ|present|describ|explain|compar|giv|answer|repl|respond|translat|process|evaluat|rank|schedul|handl)\\w*\\b[^.\\n]{0,40}?\\b(?:this|these|the following)\\b|\\b(?:any|every|all) (?:summar(?:y|ies)|answers?|responses?|replies|evaluations?|comparisons?)\\b[^.\\n]{0,30}?\\b(?:must|should|shall|has to|have to|needs? to)\\b|\\bsummar(?:y|ies) of this\\b|\\b(?:append|attach|insert)\\b[^.\\n]{0,50}?\\b(?:your|whatever you|any)\\b|\\b(?:end|start|begin|finish) (?:your|the) (?:reply|response|answer|summary)\\b|\\b(?:translate|rewrite|encode) (?:your|the) (?:whole |entire |final |full )?(?:answer|response|reply|summary|output)\\b|\\b(?:respond|reply|answer)\\b[^.\\n]{0,20}?\\b(?:only|entirely|exclusively) (?:in|with)\\b|(?:总结|概括|介绍|描述|展示|比较|回答|回复|解释|翻译|评估)(?:本|此|这|该)[^。\\n]{0,12}?(?:时|的时候)|(?:任何|所有)(?:总结|回答|回复|摘要|评价)|无论你[^。\\n]{0,10}?(?:写|说|回答)|(?:回答|回复|答案)[^。\\n]{0,6}?(?:最后|末尾|开头)|把你的(?:回答|回复|答案)|只用[^。\\n]{0,8}?(?:回答|回复)',
  ),
  // asks for data to leave: secrets asked for in the open, and bulk records sent to a personal or
  // public place — the exfiltration shape, whoever claims to ask (the honest twin names a
  // colleague, a role or the usual process, and the weights learn the difference)
  c(
    'cue.secret_ask',
    '\\b(?:paste|send|give|list|dump|print|show|text|email|forward|export|share|read out|spell out|collect|grab)\\b[^.\\n]{0,50}?\\b(?:passwords?|passcodes?|credentials?|api (?:keys?|tokens?)|access tokens?|secrets?|\\.env|login details|card numbers?|credit cards?|private keys?|aws keys?)\\b|\\b(?:passwords?|credentials?|api keys?|login details|card numbers?)\\b[^.\\n]{0,30}?\\b(?:paste|send|give|list|dump|print|text)\\b|(?:贴|发|给|导出|打印|列出|整理|dump)[^。\\n]{0,20}?(?:密码|密钥|凭证|信用卡号|登录账号|身份证号|token|key)|(?:密码|密钥|信用卡号|登录账号)[^。\\n]{0,12}?(?:贴出来|发给我|发我|给我)',
  ),
  c(
    'cue.bulk_out',
    '\\b(?:zip|dump|export|upload|copy|post|forward|send|e-?mail|share|sync|move)\\b[^\\n]{0,80}?(?:#random|\\b(?:my (?:personal|private|own|home|gmail|dropbox)|personal (?:e-?mail|address|account|drive)|gmail|outlook\\.com|protonmail|dropbox|public (?:link|channel|account|page|repo)|anyone-with-the-link|twitter|take home|outside the company))|\\b(?:all|every|whole|entire|full)\\b[^.\\n]{0,30}?\\b(?:customers?|clients?|employees?|staff|payroll|salar(?:y|ies)|contacts?|records|e-?mails|database|table|list|folder|repo)\\b[^\\n]{0,40}?\\b(?:here|in (?:this|the) chat|to me)\\b|(?:发|上传|转|贴|导出|打包|同步)[^。\\n]{0,30}?(?:私人|个人邮箱|gmail|公开|微博|带回家|外部)|(?:全部|所有|整张|整个|最近\\d+)[^。\\n]{0,20}?(?:客户|员工|工资|邮件|数据库|表|文件夹|方案|发票|记录)[^。\\n]{0,20}?(?:贴|发给我|发我|导出|打包|打印在这)',
  ),
  // a destination outside the company by its kind: a consumer mail or messaging service, a paste
  // or file-drop site. A work address or a named colleague is the honest twin's destination.
  c(
    'cue.personal_dest',
    '[\\w.+-]+@(?:gmail|googlemail|yahoo|ymail|hotmail|outlook|live|msn|icloud|me|mac|proton(?:mail)?|pm|gmx|web|mail|yandex|aol|zoho|tutanota|tuta|fastmail|hey|qq|163|126|yeah|foxmail|sina|sohu|139|aliyun|naver|daum|hanmail|guerrillamail|mailinator|10minutemail|temp-?mail)\\.[a-z.]{2,8}\\b|\\b(?:pastebin|paste\\.ee|hastebin|ghostbin|rentry|justpaste|transfer\\.sh|wetransfer|mega\\.nz|file\\.io|gofile|discord(?:\\.gg|app)?|telegram|t\\.me|whatsapp|signal|wechat|weixin|line app)\\b|(?:微信|qq号|网盘|百度云|阿里云盘|私人邮箱|个人邮箱|私人号|小号|电报)',
  ),
  // another person's private record: someone's (not "my") salary, inbox, medical or disciplinary
  // file — the shape of a request for data the requester has no evident need of; the honest
  // twin asks for its own record or a team's aggregate
  c(
    'cue.others_record',
    `(?:${OTHERS_RECORD_EN})\\b(?<=${OTHERS_EN}\\s+(?:[a-z-]+\\s+){0,2}(?:${OTHERS_RECORD_EN}))|(?:${OTHERS_RECORD_ZH})(?<=(?:他|她|他们|同事|领导|老板|上司|经理|总监|别人|其他人|其他同事|每个人|所有人|大家|ceo|cfo|[\\u4e00-\\u9fff]{2,3})的(?:${OTHERS_RECORD_ZH}))`,
  ),
  // a control switched off: a verb that skips or disables next to the checks themselves (review,
  // approval, audit, masking, guardrails) — the honest twin skips slides, reminders or an intro
  c(
    'cue.control_off',
    "\\b(?:skip|skipping|bypass|bypassing|turn(?:ing)? off|switch(?:ing)? off|disable|disabling|drop|stop|suspend|lift|remove|without|no need (?:for|to go through)|don'?t bother with|forget about)\\b[^.\\n]{0,25}?\\b(?:reviews?|approvals?|approval (?:step|process|flow)|checks?|checking|safety|security checks?|guardrails?|filters?|audit(?: trail| log(?:ging)?)?|logging|masking|redaction|confirmation|restrictions?|limits?|policies|polic(?:y|ies) checks?)\\b|(?:跳过|绕过|关掉|关了|关闭|别走|不用走|不走|不做|别做|放一放|解除|别管)[^。\\n]{0,8}?(?:审核|审批|检查|安全|日志|脱敏|限制|确认|策略|过滤|制度)|(?:审核|审批|检查|安全检查|安全那套|日志|脱敏|限制)[^。\\n]{0,8}?(?:跳过|先关|关了|关掉|别做|就别|不用|解除|放一放|取消)",
  ),
];
