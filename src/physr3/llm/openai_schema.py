"""Pydantic models of the OpenAI chat API as `physr3 serve` speaks it: the request it validates, the replies,
stream chunks and error object it sends.

Validation is strict where a lax reading would hide a client bug: `"temperature": "0.7"` is refused, not
converted; `max_tokens` must be a positive integer; every message needs a known `role` and a `content`
(a string, or a list of `{"type": "text", "text": ...}` parts). Fields physr3 does not use (`user`,
`response_format`, `logprobs`, ...) are accepted and ignored, as before; `n > 1` and `tools` are refused
rather than ignored, because the reply could not honour them. `ErrorBody` is OpenAI's error object:
`{"error": {"message", "type", "param", "code"}}`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, field_validator

ROLES = ("system", "user", "assistant", "developer", "tool")


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="allow")  # `name`, `tool_call_id`, ...: accepted, unused

    role: Literal["system", "user", "assistant", "developer", "tool"]
    content: Any = Field(description="A string, or a list of {'type': 'text', 'text': ...} parts (required).")

    @field_validator("content")
    @classmethod
    def _text_only(cls, value: Any) -> str:
        if isinstance(value, str):
            return value
        if isinstance(value, list):
            parts = []
            for part in value:
                if not (isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)):
                    raise ValueError("only text content parts ({'type': 'text', 'text': '...'}) are supported")
                parts.append(part["text"])
            return "".join(parts)
        raise ValueError("message content must be a string or a list of text parts")

    def text(self) -> dict[str, str]:
        """The engine's message: `developer` is the newer name of `system`."""
        return {"role": "system" if self.role == "developer" else self.role, "content": self.content}


class StreamOptions(BaseModel):
    model_config = ConfigDict(extra="allow")

    include_usage: StrictBool = False


class ChatCompletionRequest(BaseModel):
    """`POST /v1/chat/completions`."""

    model_config = ConfigDict(extra="allow")

    model: StrictStr | None = None
    messages: list[ChatMessage] = Field(min_length=1)
    max_tokens: StrictInt | None = Field(default=None, ge=1)
    max_completion_tokens: StrictInt | None = Field(default=None, ge=1)
    temperature: float | None = Field(default=None, ge=0, le=2, strict=True)
    top_p: float | None = Field(default=None, gt=0, le=1, strict=True)
    n: StrictInt | None = None
    stop: Any = Field(default=None, description="A string or a list of up to 4 strings.")
    seed: StrictInt | None = None
    stream: StrictBool | None = False
    stream_options: StreamOptions | None = None
    tools: list[Any] | None = None

    @field_validator("n")
    @classmethod
    def _one_choice(cls, value: int | None) -> int | None:
        if value not in (None, 1):
            raise ValueError("only n=1 is supported")
        return value

    @field_validator("stop")
    @classmethod
    def _four_stops(cls, value: Any) -> str | list[str] | None:
        if value is None or isinstance(value, str):
            return value
        if not (isinstance(value, list) and all(isinstance(s, str) for s in value)):
            raise ValueError("'stop' must be a string or a list of strings")
        if len(value) > 4:
            raise ValueError("at most 4 stop strings")
        return value

    @field_validator("tools")
    @classmethod
    def _no_tools(cls, value: list[Any] | None) -> list[Any] | None:
        if value:
            raise ValueError("tools are not supported")
        return value


class Usage(BaseModel):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


class AssistantMessage(BaseModel):
    role: Literal["assistant"] = "assistant"
    content: str


class Choice(BaseModel):
    index: int = 0
    message: AssistantMessage
    finish_reason: Literal["stop", "length"]
    logprobs: None = None


class ChatCompletion(BaseModel):
    id: str
    object: Literal["chat.completion"] = "chat.completion"
    created: int
    model: str
    choices: list[Choice]
    usage: Usage


class Delta(BaseModel):
    role: Literal["assistant"] | None = None
    content: str | None = None


class ChunkChoice(BaseModel):
    index: int = 0
    delta: Delta
    finish_reason: Literal["stop", "length"] | None = None
    logprobs: None = None


class ChatCompletionChunk(BaseModel):
    id: str
    object: Literal["chat.completion.chunk"] = "chat.completion.chunk"
    created: int
    model: str
    choices: list[ChunkChoice]
    usage: Usage | None = None

    def wire(self, include_usage: bool) -> dict[str, Any]:
        """The chunk as OpenAI sends it: a delta lists only what it carries; `usage` only when asked for."""
        obj = self.model_dump()
        for choice, model in zip(obj["choices"], self.choices):
            choice["delta"] = model.delta.model_dump(exclude_none=True)
        if not include_usage:
            obj.pop("usage")
        return obj


class ModelCard(BaseModel):
    id: str
    object: Literal["model"] = "model"
    created: int
    owned_by: str = "physr3"


class ModelList(BaseModel):
    object: Literal["list"] = "list"
    data: list[ModelCard]


class ErrorBody(BaseModel):
    message: str
    type: str
    param: str | None = None
    code: str | None = None


class ErrorResponse(BaseModel):
    error: ErrorBody
