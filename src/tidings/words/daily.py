# ruff: noqa: E501  (a catalogue of sentences reads better unwrapped)
"""The daily report's headings and the deterministic writer's sentences, in Chinese and English.

Every sentence template here states only what the data shows. Placeholders are filled with
numbers and with text already made inert by render/escape.py.
"""

from __future__ import annotations

from tidings.common.config import Lang
from tidings.words.evidence import TEXT as EVIDENCE_TEXT
from tidings.words.plural import fill

TEXT: dict[Lang, dict[str, str]] = {
    "zh": {
        "title": "{project} 开发动态报告 - {date}",
        "window": "时间窗口",
        "stats": "数据统计",
        "new_issues": "新 Issue",
        "closed_issues": "关闭 Issue",
        "new_prs": "新 PR",
        "merged_prs": "合并 PR",
        "closed_unmerged_prs": "关闭未合并 PR",
        "h_summary": "📊 每日开发状态摘要",
        "h_topic": "🎯 {title} 相关动态",
        "h_hot": "💬 高热度讨论分析",
        "h_trends": "🔥 热门话题与趋势分析",
        "h_changes": "🛠️ 重点技术变更",
        "h_activity": "📈 开发活跃度观察",
        "h_watch": "💡 值得关注的问题",
        "h_appendix": "📋 附录：详细数据列表",
        "a_new_issues": "新增 Issue",
        "a_closed_issues": "已关闭 Issue",
        "a_new_prs": "新增 PR",
        "a_merged_prs": "已合并 PR",
        "a_closed_unmerged_prs": "关闭但未合并的 PR",
        "none": "无",
        "issue": "Issue",
        "pr": "PR",
        "state_open": "开放中",
        "state_closed": "已关闭",
        "state_merged": "已合并",
        "state_draft": "草稿",
        "role_maintainer": "维护者",
        "role_contributor": "贡献者",
        "role_user": "用户",
        "role_bot": "机器人",
        "ghost": "已删除用户",
        "quiet": "本窗口较为平静：没有新增、关闭或合并的 Issue 与 PR（窗口内评论与审查 {talk} 条）。",
        "quiet_git": "本窗口没有合并的 PR。数据只来自本地 git 克隆，新开与关闭的 Issue、PR 无从得知。",
        "summary_counts_mixed": (
            "本窗口新增 Issue {new_issues} 个、关闭 {closed_issues} 个，合并 PR {merged_prs} 个、"
            "关闭未合并 {closed_unmerged_prs} 个；部分合并 PR 只来自 git 克隆，新开 PR 数无从得知。"
        ),
        "summary_counts": (
            "本窗口新增 Issue {new_issues} 个、关闭 {closed_issues} 个，新增 PR {new_prs} 个、"
            "合并 {merged_prs} 个、关闭未合并 {closed_unmerged_prs} 个。"
        ),
        "level_quiet": "平静",
        "level_low": "低于",
        "level_normal": "接近",
        "level_high": "高于",
        "level_very_high": "远高于",
        "summary_level": "整体活跃度{level}前 {n} 个窗口的平均水平（{detail}）。",
        "summary_level_nohist": "前 {n} 个窗口没有可比较的数据。",
        "summary_metric": "{metric} {value}，均值 {baseline}",
        "summary_areas": "活动主要集中在：{areas}。",
        "summary_hot": "热度最高的讨论是 #{number}（{title}）：本窗口 {comments} 条评论/审查，{people} 位参与者。",
        "summary_top": "最重要的合并是 #{number}（{title}）。",
        "area_label": "标签 {name}（{count}）",
        "area_tag": "{name}（{count}）",
        "area_path": "目录 {name}（{count}）",
        "list_sep": "、",
        "topic_empty": "本窗口没有与 {title} 相关的条目。",
        "topic_empty_git": "本窗口没有与 {title} 相关的合并 PR（数据只来自 git 克隆，其他 Issue 与 PR 无从得知）。",
        "topic_analysis": (
            "本窗口与 {title} 相关的条目 {total} 个：合并 PR {merged} 个、新开 PR {opened_prs} 个，"
            "新开 Issue {opened_issues} 个、关闭 {closed_issues} 个。"
        ),
        "topic_analysis_mixed": (
            "本窗口与 {title} 相关的条目 {total} 个：合并 PR {merged} 个，"
            "新开 Issue {opened_issues} 个、关闭 {closed_issues} 个；部分 PR 只来自 git 克隆，新开 PR 数无从得知。"
        ),
        "topic_analysis_git": (
            "本窗口与 {title} 相关的合并 PR {merged} 个（数据只来自 git 克隆，新开与关闭的 Issue、PR 无从得知）。"
        ),
        "topic_top": "其中最重要的合并是 #{n}。",
        "topic_watch": "另有 {n} 个相关的开放 Issue 列入关注（见“值得关注的问题”）。",
        "summary_counts_git": "本窗口合并 {merged_prs} 个 PR（来自本地 git 克隆；新开与关闭的 Issue、PR 数 git 无从得知）。",
        "coverage_git_only": "本窗口的 {git} 个合并 PR 只来自本地 git 克隆：git 只记录合并，新开的 PR、Issue、关闭未合并的 PR、评论与审查都需要 GitHub API（运行 `tidings sync {repo}`），因此这些数字标为“—”；作者显示为 git 记录的姓名，而非 GitHub 账号。",
        "coverage_git_none": "数据只来自本地 git 克隆：git 只记录合并，新开的 PR、Issue、关闭未合并的 PR、评论与审查都需要 GitHub API（运行 `tidings sync {repo}`），因此这些数字标为“—”。",
        "appendix_unknown": "数据只来自 git 克隆，无从得知",
        "appendix_partial": "总数无从得知：以下只是已知的条目，只来自 git 克隆的 PR 何时新开不得而知。",
        "coverage_mixed": "本窗口有 {git} 个合并 PR 只来自本地 git 克隆：它们何时开启未知，不计入新 PR，也没有评论与审查记录。",
        "unknown_count": "—",
        "partial_window": "⚠️ 部分窗口：数据截至 {until}，窗口结束于 {end}；此后的活动不在本报告中。",
        "act_needs_api": "需要 GitHub API（git 克隆不含审查与评论）",
        "act_latency_git": "审查延迟：git 克隆不含审查记录，需要 GitHub API。",
        "reason_label": "标签 {v}",
        "reason_tag": "标题标记 {v}",
        "reason_keyword": "关键词 {v}",
        "reason_path": "路径 {v}",
        "matched_by": "匹配：{reasons}",
        "event_opened": "本窗口由 {author} 新开",
        "event_merged": "本窗口合并（+{additions}/−{deletions}，{files} 个文件）",
        "event_closed": "本窗口关闭",
        "event_active": "本窗口有 {n} 条讨论",
        "quote": "“{text}”",
        "hot_core": "核心议题",
        "hot_views": "观点与讨论",
        "hot_contention": "争议焦点",
        "hot_status": "当前状态",
        "hot_view": "{role} {who}（{n} 条）：{text}",
        "hot_view_review": "{role} {who}（{n} 条，审查结论 {states}）：{text}",
        "no_words": "（无文字内容）",
        "hot_empty": "本窗口没有达到热度门槛的讨论（至少 2 位参与者或 3 条评论，不计机器人）。",
        "hot_unknown": "数据只来自 git 克隆，其中没有评论与审查：热门讨论无从得知。",
        "hot_metrics": "本窗口 {comments} 条评论/审查，{people} 位参与者；累计表情回应 {reactions} 个。",
        "contention_reactions": "条目获得 👍 {up} / 👎 {down}。",
        "contention_reviews": "审查意见不一：{approved} 批准，{changes} 要求修改。",
        "contention_roles": "维护者（{maintainers}）与{others}（{people}）均参与了讨论。",
        "contention_users": "用户/贡献者",
        "status_line": "{state}，最后活动 {when}",
        "status_links": "，关联 PR：{links}",
        "status_closes": "，关联 Issue：{links}",
        "trend_line": "{kind} {name}（{count} 项）",
        "trend_label": "标签",
        "trend_tag": "标题标记",
        "trend_path": "目录",
        "trends_empty": "本窗口的条目没有形成 2 项以上的主题聚类。",
        "change_size": "+{additions}/−{deletions}，{files} 个文件",
        "files_listed": "（GitHub 只列出其中 {listed} 个）",
        "change_dirs": "主要目录 {dirs}",
        "change_score": "重要性 {score}（{parts}）",
        "part_size": "规模 {v}",
        "part_core_path": "核心路径 {v}",
        "part_discussion": "讨论 {v}",
        "part_linked_issues": "关联 Issue {v}",
        "part_revert": "回滚 {v}",
        "part_bot": "机器人 PR，不参与排序",
        "part_label": "标签 {name} {v}",
        "change_closes": "关闭 {links}",
        "change_nobody": "PR 描述未说明改动内容；改动集中在 {dirs}。",
        "changes_empty": "本窗口没有合并的 PR。",
        "act_authors": "最活跃的作者（新开 Issue/PR）：{list}",
        "act_authors_merged": "最活跃的作者（合并 PR；git 克隆不知道 PR 何时新开）：{list}",
        "act_reviewers": "最活跃的审查者：{list}",
        "act_commenters": "最活跃的评论者：{list}",
        "act_first": "首次贡献者：{list}",
        "act_first_merge": "首次贡献者（按首次合并的 PR 计）：{list}",
        "act_first_unknown": (
            "首次贡献者：未知（存储的 git 历史没有追溯到仓库的第一个提交，无法判断哪次合并是作者的首次合并）"
        ),
        "act_first_partial": (
            "首次贡献者：{list}（仅 GitHub 标注的；来自 git 的合并是否为首次合并未知，存储的历史没有追溯到仓库起点）"
        ),
        "act_latency": "审查延迟：本窗口合并的 {n} 个 PR 从创建到首次审查的中位时间为 {hours} 小时。",
        "act_latency_none": "审查延迟：本窗口合并的 PR 中没有记录到他人审查。",
        "act_count": "{who}（{n}）",
        "act_none": "无",
        "act_text": "本窗口共有 {people} 位人类参与者（作者、评论者与审查者），机器人活动不计入排名。",
        "act_text_git": "本窗口合并的 PR 来自 {people} 位人类作者；git 克隆不含评论与审查，其他参与者无从得知。机器人活动不计入排名。",
        "watch_crash": "标题提及崩溃",
        "watch_regression": "疑似回归",
        "watch_unanswered": "互动较多（本窗口 {n} 条评论，{r} 个表情）但尚无维护者回复",
        "watch_long_open_active": "已开放 {days} 天，本窗口仍有 {n} 条评论",
        "watch_empty": "本窗口没有符合关注规则的开放 Issue（崩溃、回归、无维护者回复的高互动、长期活跃）。",
        "watch_unknown": "数据只来自 git 克隆，其中没有 Issue：关注列表无从得知。",
        "footer": (
            "由 tidings {version} 生成 · 窗口（UTC）{window} · 数据截至 {as_of} · 生成于 {generated} · "
            "条目数：{counts} · 正文由{writer}撰写"
        ),
        "writer_rules": "规则（未使用模型）",
        "writer_llm": "模型",
        "writer_mixed": "模型与规则",
        "part_model": "模型调整 {v}",
        "change_note": "模型提示：{text}",
        "change_effect": "PR 所述效果：“{text}”",
        "footer_llm": (
            "模型 {model}：模型撰写 {llm_parts} 段，规则撰写 {rules_parts} 段；"
            "守卫删去 {dropped} 句，{fallbacks} 处回退到规则文本"
        ),
        "unknown": "未知",
        "colon": "：",
    },
    "en": {
        "title": "{project} development report - {date}",
        "window": "Window",
        "stats": "Stats",
        "new_issues": "New issues",
        "closed_issues": "Closed issues",
        "new_prs": "New PRs",
        "merged_prs": "Merged PRs",
        "closed_unmerged_prs": "Closed unmerged PRs",
        "h_summary": "📊 Daily status summary",
        "h_topic": "🎯 {title}",
        "h_hot": "💬 Hot discussions",
        "h_trends": "🔥 Hot topics and trends",
        "h_changes": "🛠️ Key technical changes",
        "h_activity": "📈 Activity",
        "h_watch": "💡 Worth watching",
        "h_appendix": "📋 Appendix: complete lists",
        "a_new_issues": "New issues",
        "a_closed_issues": "Closed issues",
        "a_new_prs": "New PRs",
        "a_merged_prs": "Merged PRs",
        "a_closed_unmerged_prs": "Closed without merging",
        "none": "none",
        "issue": "Issue",
        "pr": "PR",
        "state_open": "open",
        "state_closed": "closed",
        "state_merged": "merged",
        "state_draft": "draft",
        "role_maintainer": "Maintainer",
        "role_contributor": "Contributor",
        "role_user": "User",
        "role_bot": "Bot",
        "ghost": "deleted user",
        "quiet": (
            "A quiet window: no issues or PRs were opened, closed or merged "
            "(comments and reviews in the window: {talk})."
        ),
        "quiet_git": (
            "No PR was merged in the window. The data comes only from a local git clone, so "
            "which issues and PRs were opened or closed is unknown."
        ),
        "summary_counts_mixed": (
            "Issues: {new_issues} new, {closed_issues} closed. Pull requests: {merged_prs} "
            "merged, {closed_unmerged_prs} closed without merging; how many were opened is "
            "unknown, since some merged PRs come only from a git clone."
        ),
        "summary_counts": (
            "Issues: {new_issues} new, {closed_issues} closed. Pull requests: {new_prs} new, "
            "{merged_prs} merged, {closed_unmerged_prs} closed without merging."
        ),
        "level_quiet": "quiet compared with",
        "level_low": "below",
        "level_normal": "close to",
        "level_high": "above",
        "level_very_high": "far above",
        "summary_level": "Overall activity is {level} the mean of the previous {n} windows ({detail}).",
        "summary_level_nohist": "The previous {n} windows hold no data to compare with.",
        "summary_metric": "{metric} {value} vs {baseline}",
        "summary_areas": "Most activity was in {areas}.",
        "summary_hot": "The hottest discussion was #{number} ({title}): {comments} comments and reviews from {people} people in the window.",
        "summary_top": "The most important merge was #{number} ({title}).",
        "area_label": "label {name} ({count})",
        "area_tag": "{name} ({count})",
        "area_path": "directory {name} ({count})",
        "list_sep": ", ",
        "topic_empty": "No items related to {title} in this window.",
        "topic_empty_git": (
            "No merged PR related to {title} in this window (the data comes only from a git "
            "clone, so other issues and PRs are unknown)."
        ),
        "topic_analysis": (
            "Items related to {title}: {total}. Merged PRs: {merged}, opened PRs: {opened_prs}; "
            "opened issues: {opened_issues}, closed issues: {closed_issues}."
        ),
        "topic_analysis_mixed": (
            "Items related to {title}: {total}. Merged PRs: {merged}; opened issues: "
            "{opened_issues}, closed issues: {closed_issues}. How many PRs were opened is "
            "unknown, since some come only from a git clone."
        ),
        "topic_analysis_git": (
            "Merged PRs related to {title}: {merged} (the data comes only from a git clone, so "
            "which issues and PRs were opened or closed is unknown)."
        ),
        "topic_top": "The most important merge is #{n}.",
        "topic_watch": "Related open issues on the watch list: {n} (see “Worth watching”).",
        "summary_counts_git": "Merged PRs: {merged_prs} (from a local git clone, which cannot tell how many issues and PRs were opened or closed).",
        "coverage_git_only": "The window's {git} merged PRs come only from a local git clone: git records merges, while opened PRs and issues, PRs closed without merging, comments and reviews need the GitHub API (run `tidings sync {repo}`), so those counts show as “—”; authors are git names, not GitHub logins.",
        "coverage_git_none": "The data comes only from a local git clone: git records merges, while opened PRs and issues, PRs closed without merging, comments and reviews need the GitHub API (run `tidings sync {repo}`), so those counts show as “—”.",
        "appendix_unknown": "unknown: the data comes only from a git clone",
        "appendix_partial": "The total is unknown: these are the known ones; when the PRs read only from a git clone were opened is unknown.",
        "coverage_mixed": "{git} of the window's merged PRs come only from a local git clone: when they were opened is unknown, so they are not counted as new, and they have no comments or reviews.",
        "unknown_count": "—",
        "partial_window": "⚠️ Partial window: the data stops at {until}, the window ends at {end}; nothing after that is in this report.",
        "act_needs_api": "needs the GitHub API (a git clone has no reviews or comments)",
        "act_latency_git": "Review latency: a git clone holds no reviews; it needs the GitHub API.",
        "reason_label": "label {v}",
        "reason_tag": "title tag {v}",
        "reason_keyword": "keyword {v}",
        "reason_path": "path {v}",
        "matched_by": "matched by {reasons}",
        "event_opened": "opened by {author}",
        "event_merged": "merged (+{additions}/−{deletions}, files: {files})",
        "event_closed": "closed",
        "event_active": "comments in the window: {n}",
        "quote": "“{text}”",
        "hot_core": "Core topic",
        "hot_views": "Viewpoints",
        "hot_contention": "Point of contention",
        "hot_status": "Status",
        "hot_view": "{role} {who} ({n}): {text}",
        "hot_view_review": "{role} {who} ({n}, review: {states}): {text}",
        "no_words": "(no text)",
        "hot_empty": (
            "No discussion reached the threshold (2 participants or 3 comments, bots excluded)."
        ),
        "hot_unknown": (
            "The data comes only from a git clone, which holds no comments or reviews: hot "
            "discussions are unknown."
        ),
        "hot_metrics": (
            "in the window: comments and reviews {comments}, participants {people}; "
            "reactions so far: {reactions}."
        ),
        "contention_reactions": "The item has 👍 {up} / 👎 {down}.",
        "contention_reviews": "Reviews disagree: {approved} approved, {changes} requested changes.",
        "contention_roles": "Maintainers ({maintainers}) and {others} ({people}) both took part.",
        "contention_users": "users and contributors",
        "status_line": "{state}, last activity {when}",
        "status_links": "; linked PRs: {links}",
        "status_closes": "; linked issues: {links}",
        "trend_line": "{kind} {name} ({count})",
        "trend_label": "Label",
        "trend_tag": "Title tag",
        "trend_path": "Directory",
        "trends_empty": "The window's items form no group of two or more.",
        "change_size": "+{additions}/−{deletions}, files: {files}",
        "files_listed": " (GitHub lists only {listed} of them)",
        "change_dirs": "mostly {dirs}",
        "change_score": "importance {score} ({parts})",
        "part_size": "size {v}",
        "part_core_path": "core path {v}",
        "part_discussion": "discussion {v}",
        "part_linked_issues": "linked issues {v}",
        "part_revert": "revert {v}",
        "part_bot": "bot PR, not ranked",
        "part_label": "label {name} {v}",
        "change_closes": "closes {links}",
        "change_nobody": "The PR description does not say what changed; the change is in {dirs}.",
        "changes_empty": "No PRs were merged in this window.",
        "act_authors": "Most active authors (new issues and PRs): {list}",
        "act_authors_merged": (
            "Most active authors (merged PRs; a git clone does not know when a PR was "
            "opened): {list}"
        ),
        "act_reviewers": "Most active reviewers: {list}",
        "act_commenters": "Most active commenters: {list}",
        "act_first": "First-time contributors: {list}",
        "act_first_merge": "First-time contributors (by first merged PR): {list}",
        "act_first_unknown": (
            "First-time contributors: unknown (the stored git history does not reach the "
            "repository's first commit, so no merge can be told to be its author's first)"
        ),
        "act_first_partial": (
            "First-time contributors: {list} (those GitHub marks; whether the merges read from "
            "git were first merges is unknown: the stored history does not reach the "
            "repository's start)"
        ),
        "act_latency": (
            "Review latency: median {hours} h from opening to first review, over the PRs "
            "merged in this window (sample: {n})."
        ),
        "act_latency_none": "Review latency: no PR merged in this window has a review by others.",
        "act_count": "{who} ({n})",
        "act_none": "none",
        "act_text": (
            "People taking part in the window (authors, commenters and reviewers): {people}. "
            "Bots are left out of the rankings."
        ),
        "act_text_git": (
            "Human authors of the window's merged PRs: {people}. A git clone holds no comments "
            "or reviews, so anyone else who took part is unknown. Bots are left out of the "
            "rankings."
        ),
        "watch_crash": "the title reports a crash",
        "watch_regression": "a possible regression",
        "watch_unanswered": (
            "high engagement (comments in the window: {n}, reactions: {r}) and no maintainer reply yet"
        ),
        "watch_long_open_active": "open for {days} days and still active (comments in the window: {n})",
        "watch_empty": (
            "No open issue matches a watch rule (crash, regression, unanswered high engagement, "
            "long-open and active)."
        ),
        "watch_unknown": (
            "The data comes only from a git clone, which holds no issues: the watch list is "
            "unknown."
        ),
        "footer": (
            "Generated by tidings {version} · window (UTC) {window} · data as of {as_of} · "
            "generated {generated} · items: {counts} · prose by {writer}"
        ),
        "writer_rules": "rules (no model)",
        "writer_llm": "a model",
        "writer_mixed": "a model and rules",
        "part_model": "model adjustment {v}",
        "change_note": "Model note: {text}",
        "change_effect": "Effect, as the PR states it: “{text}”",
        "footer_llm": (
            "model {model}: parts by the model {llm_parts}, by rules {rules_parts}; sentences "
            "dropped by the guard {dropped}, parts kept as rules text after a failure {fallbacks}"
        ),
        "unknown": "unknown",
        "colon": ": ",
    },
}


def t(lang: Lang, key: str, **values: object) -> str:
    return fill(TEXT[lang][key], **values)


# The evidence marks' words (words/evidence.py) belong to this catalogue too.
for _lang, _words in EVIDENCE_TEXT.items():
    TEXT[_lang].update(_words)
